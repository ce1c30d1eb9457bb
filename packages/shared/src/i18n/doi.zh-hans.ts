import type { doiEn } from './doi.en.js';

/** DataCite DOI 注册（issue 17）：工作人员所见。 */
export const doiZhHans: typeof doiEn = {
  notConfigured: '未配置 DataCite 账号（DATACITE_PREFIX、DATACITE_USER、DATACITE_PASSWORD）：不分配也不注册 DOI。',
  noRegistration: '此记录没有由数据中心注册的 DOI。',
  problem: {
    noReply: 'DataCite 未响应（超时或网络故障），将再次尝试。',
    credentials: 'DataCite 拒绝了数据仓储账号（{{status}}）：请检查 DATACITE_USER 和 DATACITE_PASSWORD。',
    notFound: 'DataCite 没有此地址（404）：请检查 DATACITE_API。',
    refused: 'DataCite 拒绝了该 DOI 或其元数据（422），原因如下。',
    unavailable: 'DataCite 出错（{{status}}），将再次尝试。',
    other: 'DataCite 返回 {{status}}。',
  },
};

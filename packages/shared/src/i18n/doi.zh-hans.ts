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
  /** 个人中心的 DOI 注册页面（工作人员）。 */
  ui: {
    title: 'DOI 注册',
    intro: '数据中心分配的每个 DOI 在 DataCite 的注册情况。调用失败后由服务器自动重试：先等一分钟，此后每次等待时间加倍（最长六小时），15 次后放弃；点击“重试”可立即再试。',
    filters: { label: '显示', failing: '失败', all: '全部' },
    empty: { failing: '没有注册失败的 DOI。', all: '尚未分配任何 DOI。' },
    total: '共 {{count}} 条注册',
    columns: { record: '记录', state: '状态', tries: '尝试', answer: 'DataCite 的答复', actions: '操作' },
    recordDeleted: '记录已删除',
    states: {
      waiting: '等待注册',
      failed: '失败，将重试',
      givenUp: '已放弃',
      findable: '可发现',
      registered: '已注册',
      hidden: '已隐藏',
      notSent: '未提交 DataCite',
    },
    stateHelp: {
      waiting: '尚未发送给 DataCite。',
      failed: '上次调用失败，服务器将在下次尝试时间再试。',
      givenUp: '已失败 15 次，服务器不再尝试。排除原因后请点击“重试”。',
      findable: '已注册且可发现：DOI 解析到数据的落地页。',
      registered: '已注册，但不可发现。',
      hidden: '记录已撤回：DOI 仍已注册但不可发现，解析到撤回说明页。',
      notSent: '记录在 DataCite 收到其 DOI 之前已被删除。',
    },
    attempts: '尝试次数：{{count}}',
    lastTry: '上次尝试：{{time}}',
    nextTry: '下次尝试：{{time}}',
    registeredOn: '注册时间：{{time}}',
    retry: '重试',
    retryLabel: '重试 {{doi}} 的 DOI 注册',
    retried: '{{doi}}：DataCite 已接受（{{state}}）。',
    retryFailed: '{{doi}}：重试失败。{{problem}}',
    line: 'DOI 注册',
    openList: '全部 DOI 注册',
  },
};

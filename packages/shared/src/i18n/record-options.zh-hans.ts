import type { recordOptionsEn } from './record-options.en.js';

/** 元数据选项的名称（与 record-options.en.ts 同结构）。 */
export const recordOptionsZhHans: typeof recordOptionsEn = {
  license: {
    BY: 'CC BY 4.0（署名）',
    'BY-SA': 'CC BY-SA 4.0（署名-相同方式共享）',
    'BY-ND': 'CC BY-ND 4.0（署名-禁止演绎）',
    'BY-NC': 'CC BY-NC 4.0（署名-非商业性使用）',
    'BY-NC-SA': 'CC BY-NC-SA 4.0（署名-非商业性使用-相同方式共享）',
    'BY-NC-ND': 'CC BY-NC-ND 4.0（署名-非商业性使用-禁止演绎）',
  },
  temporalResolution: {
    hourly: '小时',
    daily: '日',
    monthly: '月',
    yearly: '年',
    '1-10years': '1 至 10 年',
    '10-100years': '10 至 100 年',
    '100-1000years': '100 至 1000 年',
    over1000years: '1000 年以上',
  },
  doiCategory: { own: '自有 DOI', exist: '已有 DOI', public: '由数据中心分配 DOI' },
  protectionPeriod: { halfYear: '半年', oneYear: '一年', twoYears: '两年' },
  sharingPolicy: {
    online: '在线开放获取',
    offlineCenter: '离线，通过数据中心申请',
    offlineEmail: '通过数据提供者邮箱申请',
  },
  submittingType: { general: '一般数据', paper: '待投稿论文数据', project: '项目数据' },
  platform: {
    portal: '三极数据门户',
    ptpe: '泛第三极环境数据平台',
    sjynp: '三江源国家公园数据平台',
    heihe: '黑河计划数据管理中心',
  },
  authorRole: {
    resourceProvider: '资源提供者',
    manager: '管理者',
    owner: '所有者',
    distributor: '分发者',
    producer: '生产者',
    contactParty: '联系人',
    principalInvestigator: '首席科学家',
    processor: '处理者',
    publisher: '出版者',
    metadataAuthor: '元数据作者',
  },
  literatureType: {
    citation: '引用文献',
    reference: '参考文献',
    related: '相关文献',
    application: '应用文献',
    special: '专题文献',
    other: '其他参考资料',
  },
  keywordType: { discipline: '学科', place: '地点', temporal: '时间', theme: '主题' },
  language: { 'zh-hans': '中文', en: '英文' },
};

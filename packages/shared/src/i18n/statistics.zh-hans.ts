import type { statisticsEn } from './statistics.en.js';

/** 个人中心的使用统计：数据集统计与申请统计（issue 10）。 */
export const statisticsZhHans: typeof statisticsEn = {
  views: '浏览量',
  downloads: '下载量',
  orders: '申请量',
  waiting: '待处理申请',
  link: '统计',
  loadFailed: '统计加载失败。',
  retry: '重试',
  datasets: '数据集',
  record: {
    title: '数据统计',
    totals: '总计',
    overTime: '随时间变化',
    byDay: '按日',
    byMonth: '按月',
    chartLoading: '正在加载图表…',
    chartLabel: '{{first}} 至 {{last}} 的浏览量、下载量与申请量',
    empty: '该数据集尚无任何统计：没有浏览、下载或申请。',
    noSeries: '该数据集尚无按日期的统计：其总数是在开始按日期统计之前记录的。',
    countries: '各国家和地区的下载量与申请量',
    country: '国家或地区',
    unknownCountry: '未知',
    countriesNote: '开放数据的下载无需申请，因此其国家或地区未知。',
    noCountries: '尚无下载或申请。',
    forbidden: '只有数据集的数据提供者和数据中心可以查看其统计。',
    notFound: '该数据集不存在。',
    backToList: '已发布数据',
  },
  apply: {
    title: '申请统计',
    intro: '您已发布的数据集，按您的角色统计：您提供的数据、署名您为作者的数据集，以及您评审过的数据集。',
    roles: { provider: '作为数据提供者', author: '作为作者', assessor: '作为评审专家' },
    dataset: '数据集',
    actions: '操作',
    empty: {
      provider: '您还没有已发布的数据集。',
      author: '尚无已发布的数据集署名您（您的邮箱）为作者。',
      assessor: '您尚未评审过已发布的数据集。',
    },
  },
};

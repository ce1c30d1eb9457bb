import type { dataCartEn, voucherCheckEn } from './orders-public.en.js';

/** 公开页面上的订单文字（不含 Ant Design，公开目录）：加入数据车、下载权限、下载凭证核验。 */
export const dataCartZhHans: typeof dataCartEn = {
  add: '加入数据车',
  addLabel: '加入数据车：{{title}}',
  adding: '正在加入…',
  added: '已加入数据车。',
  openBasket: '打开数据车',
  failed: '出错了！请稍后再试',
  access: {
    ok: '您可以下载该数据。',
    openDownload: '前往下载页面',
    login: '请登录后下载数据。',
    embargo: '该数据处于保护期内，自 {{date}} 起可以申请和下载。',
    order: '请先申请该数据后下载：加入数据车，然后提交申请。',
    waiting: '您对该数据的申请正在审核中。',
    notPublished: '该数据未发布，不能申请。',
  },
};

export const voucherCheckZhHans: typeof voucherCheckEn = {
  title: '数据下载凭证',
  valid: '凭证 {{code}} 有效。',
  invalid: '凭证 {{code}} 已失效：对应订单已被删除。',
  expired: '凭证 {{code}} 已失效：对应订单已于 {{date}} 过期。',
  notFound: '没有验证码为 {{code}} 的下载凭证。',
  loadFailed: '无法核验该凭证。',
  retry: '重试',
  applicant: '获准人',
  approvedBy: '审核人',
  approvedAt: '审核时间',
  validUntil: '有效期至',
  noExpiry: '长期有效',
  datasets: '数据',
  citation: '引用方式',
  license: '许可协议',
  form: {
    label: '核验下载凭证',
    intro: '数据下载凭证列出持有人获准使用的数据，并附有验证码。输入验证码即可核验凭证是否有效。',
    code: '验证码',
    placeholder: '例如 7K3M-9QXD-2HPA',
    submit: '核验',
    required: '请输入凭证上的验证码。',
    another: '核验其他验证码',
  },
};

import type { identifiersEn } from './identifiers.en.js';

/** 人员、机构与资助方的标识符（问题 17）：编辑器的字段及其错误提示。 */
export const identifiersZhHans: Record<keyof typeof identifiersEn, string> = {
  orcid: 'ORCID 标识符',
  orcidHelp: '例如 0000-0002-1825-0097 或 https://orcid.org/0000-0002-1825-0097',
  orcidInvalid: '这不是有效的 ORCID 标识符：应为 16 位，如 0000-0002-1825-0097（或其地址 https://orcid.org/…），最后一位为校验位。请逐位核对。',
  affiliationRor: '单位的 ROR 标识符',
  rorHelp: '例如 https://ror.org/03yrm5c26',
  rorInvalid: '这不是有效的 ROR 标识符：应为 https://ror.org/ 加 9 个字符，如 03yrm5c26，最后两位为校验码。请从 ror.org 复制。',
  funder: '资助方标识符',
  funderHelp: 'Crossref 资助方标识符（10.13039/…）或资助方的 ROR 标识符（https://ror.org/…）',
  funderInvalid: '这既不是 Crossref 资助方标识符（10.13039/ 加数字），也不是 ROR 标识符（https://ror.org/ 加 9 个字符，最后两位为校验码）。',
  edit: '标识符',
  editTitle: '{{name}} 的标识符',
  saved: '标识符已保存。',
};

import type { Messages } from './types.js';

/** 元数据编辑器及个人中心元数据列表的文本（与 editor.en.ts 同结构）。 */
export const editorZhHans: Messages['editor'] = {
  addTitle: '新建元数据',
};

/** 元数据的文件树（议题 19）：其调用拒绝的原因。 */
export const fileTreeZhHans = {
  nameRequired: '请输入名称。',
  nameIllegal: '名称含有不允许的字符。',
  nameSlash: '名称不能包含斜杠。',
  nameDots: '名称不能是“.”或“..”。',
  nameSpaces: '名称不能以空格开头或结尾。',
  nameTooLong: '名称最多 255 个字符。',
  pathDots: '路径不能包含“..”。',
  pathTooLong: '路径太长。',
  rootPath: '根目录不能修改。',
  noFolder: '没有这个文件夹。',
  noEntry: '没有这个文件或文件夹。',
  exists: '此文件夹中已有同名的文件或文件夹。',
  intoItself: '文件夹不能移动到它自己里面。',
  ordering: '排序只能是 name、-name、size、-size、modified 或 -modified。',
  metadataRequired: '请提供元数据编号（metadata_id）。',
};

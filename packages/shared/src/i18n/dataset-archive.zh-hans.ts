/** 整个数据集（issue 19）：已发布数据的打包文件和订单的 HTTP 索引。 */
export const datasetArchiveZhHans = {
  disabled: '本门户不提供整个数据集的打包下载（ARCHIVE_ENABLED 已关闭）。',
  onlyPublished: '只有已发布的数据集才有整个数据集的打包文件。',
  notReady: '该数据集的打包文件正在准备中，请几分钟后再试。',
  failed: '该数据集的打包文件未能生成，系统将重新尝试。在此期间请逐个下载文件或通过 HTTP 索引下载。',
  tooLarge: '该数据集的数据超过 {{limit}}，无法打成一个包：请通过订单的 HTTP 索引或 FTP 按文件夹下载。',
  indexTitle: '{{path}} 的索引',
  parent: '上级文件夹',
  empty: '此文件夹为空。',
  noEntry: '该订单的数据集中没有这个文件或文件夹。',
};

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
  /** 订单页的“下载全部”（个人中心）。 */
  ui: {
    title: '下载全部',
    intro: '每个数据集打成一个 zip，包含其全部文件及文件夹结构，并附 SHA-256 清单。下载中断后可以续传。',
    download: '下载全部（{{size}}）',
    downloadFor: '下载 {{title}} 的全部数据（{{size}}）',
    files: '{{n}} 个文件，数据共 {{size}}',
    preparing: '打包文件正在准备中，准备好后将在本页显示。',
    indexIntro: '也可以在命令行中按文件夹下载所有数据集（订单有效期内可用）：',
    unavailable: '暂时无法显示打包文件。',
  },
};

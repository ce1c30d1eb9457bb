/** FTP 账号（issue 19）：服务器关于它的回答。 */
export const ftpZhHans = {
  noAccount: '该数据没有 FTP 账号（或已过期）；请在数据文件的根目录中创建。',
  disabled: '本门户未运行 FTP 服务（FTP_ENABLED 已关闭）。',
};

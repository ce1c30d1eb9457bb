/** FTP accounts (issue 19): the server's answers about them. */
export const ftpEn = {
  noAccount: 'There is no FTP account for this data (or it has expired); create one from the root folder of the data files.',
  disabled: 'The FTP server is not running on this portal (FTP_ENABLED is off).',
};

/**
 * The command lines shown beside an FTP account (issue 19), built from its real host, port, user
 * and, right after it is made, its password; without the password each command asks for it.
 */
export interface FtpLogin {
  host: string;
  port: number;
  /** Implicit FTPS: the address is `ftps://` (curl, wget and lftp all speak it so). */
  tls?: boolean;
  username: string;
  password?: string;
}

/** A word for a POSIX shell: as it is when it holds nothing the shell reads, else in single quotes. */
export function shellWord(value: string): string {
  return /^[\w.,:/@%+=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The server's address: `ftp://host:port`, or `ftps://` where the server speaks implicit FTPS (an IPv6 host in brackets). */
export function ftpAddress({ host, port, tls }: Pick<FtpLogin, 'host' | 'port' | 'tls'>): string {
  return `${tls ? 'ftps' : 'ftp'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** lftp's `-u user[,password]`. */
const lftpUser = (login: FtpLogin) => shellWord(login.password ? `${login.username},${login.password}` : login.username);
/** curl's `--user user[:password]` (curl asks for a password left out). */
const curlUser = (login: FtpLogin) => shellWord(login.password ? `${login.username}:${login.password}` : login.username);

/** A download account's commands: list the record (curl), fetch it whole (wget -r), mirror it (lftp) into `folder`. */
export function downloadCommands(login: FtpLogin, folder: string) {
  const address = ftpAddress(login);
  const wgetLogin = login.password ? `--ftp-password=${shellWord(login.password)}` : '--ask-password';
  return {
    list: `curl --user ${curlUser(login)} --list-only ${address}/`,
    wget: `wget -r -nH -c --ftp-user=${shellWord(login.username)} ${wgetLogin} ${address}/`,
    mirror: `lftp -u ${lftpUser(login)} ${address} -e ${shellWord(`mirror -c / ${folder}; quit`)}`,
  };
}

/** An upload account's commands: a whole local folder (lftp mirror -R) and one file (curl -T); both ask for the password. */
export function uploadCommands(login: Omit<FtpLogin, 'password'>) {
  const address = ftpAddress(login);
  return {
    mirror: `lftp -u ${shellWord(login.username)} ${address} -e ${shellWord('mirror -R localdir /; quit')}`,
    file: `curl -T localfile --user ${shellWord(login.username)} ${address}/`,
  };
}

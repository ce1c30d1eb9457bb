import { describe, expect, it } from 'vitest';
import { downloadCommands, ftpAddress, shellWord, uploadCommands } from './commands';

describe('FTP command lines', () => {
  it('quotes a word only when the shell would read it', () => {
    expect(shellWord('d0123456789ab')).toBe('d0123456789ab');
    expect(shellWord('Ab-_9x')).toBe('Ab-_9x');
    expect(shellWord('mirror -R localdir /; quit')).toBe("'mirror -R localdir /; quit'");
    expect(shellWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });

  it('writes an IPv6 host in brackets', () => {
    expect(ftpAddress({ host: 'data.example.org', port: 2121 })).toBe('ftp://data.example.org:2121');
    expect(ftpAddress({ host: '::1', port: 21 })).toBe('ftp://[::1]:21');
    // A server with a certificate speaks implicit FTPS only: every command's address says ftps://.
    expect(ftpAddress({ host: 'data.example.org', port: 990, tls: true })).toBe('ftps://data.example.org:990');
    expect(uploadCommands({ host: 'h', port: 990, tls: true, username: 'u1' }).file).toBe('curl -T localfile --user u1 ftps://h:990/');
  });

  it('puts the password in the download commands when it is known, else has them ask for it', () => {
    const login = { host: '127.0.0.1', port: 2121, username: 'd0a1b2c3d4e5f', password: 'pQ-3_xY' };
    expect(downloadCommands(login, 'rec1')).toEqual({
      list: 'curl --user d0a1b2c3d4e5f:pQ-3_xY --list-only ftp://127.0.0.1:2121/',
      wget: 'wget -r -nH -c --ftp-user=d0a1b2c3d4e5f --ftp-password=pQ-3_xY ftp://127.0.0.1:2121/',
      mirror: "lftp -u d0a1b2c3d4e5f,pQ-3_xY ftp://127.0.0.1:2121 -e 'mirror -c / rec1; quit'",
    });
    const asking = downloadCommands({ ...login, password: undefined }, 'rec1');
    expect(asking.list).toBe('curl --user d0a1b2c3d4e5f --list-only ftp://127.0.0.1:2121/');
    expect(asking.wget).toContain('--ask-password');
    expect(asking.mirror).toMatch(/^lftp -u d0a1b2c3d4e5f ftp:/);
  });

  it('gives an upload account lftp mirror -R and curl -T', () => {
    expect(uploadCommands({ host: 'h', port: 2121, username: 'u1' })).toEqual({
      mirror: "lftp -u u1 ftp://h:2121 -e 'mirror -R localdir /; quit'",
      file: 'curl -T localfile --user u1 ftp://h:2121/',
    });
  });
});

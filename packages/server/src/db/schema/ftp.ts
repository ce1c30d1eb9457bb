/** An FTP account of the portal's FTP server (migration 0018; modules/ftp writes it). */
export interface FtpAccountTable {
  id: string;
  /** 'download': read-only, rooted in the record's files; 'upload': write-only, into the record's incoming folder. */
  kind: string;
  metadata_id: string;
  /** The portal account it acts for: what it may do is that account's right, checked again at each login. */
  user_id: string;
  /** The FTP login name (random, unique). */
  username: string;
  /** argon2id of the random password, which is shown once. */
  password_hash: string;
  created_at: string;
  /** After this the account is refused at login and removed by a job; null: until deleted (upload accounts). */
  expires_at: string | null;
}

export interface FtpTables {
  ftp_accounts: FtpAccountTable;
}

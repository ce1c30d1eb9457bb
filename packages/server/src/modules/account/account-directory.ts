import { staffUsers, type Db } from '../../db/index.js';
import { AccountRepo } from './account.repo.js';

/**
 * What other modules may read of the accounts (the account module owns `users`): names to show,
 * the staff to notify, an account an operator names. They ask here instead of reading `users`.
 */
export class AccountDirectory {
  private readonly repo: AccountRepo;

  constructor(private readonly db: Db) {
    this.repo = new AccountRepo(db);
  }

  /** Each user's name as records and trails show it: the real name, or the username without one. */
  namesOf(ids: readonly string[]): Promise<Map<string, string>> {
    return this.repo.namesOf(ids);
  }

  /** The active staff accounts, whom the data centre's notices go to. */
  staffUsers() {
    return staffUsers(this.db);
  }

  /** Whether there is an account with this id. */
  async exists(id: string): Promise<boolean> {
    return !!(await this.repo.findUserById(id));
  }

  /** An account by its username (any case), with whether it is staff and active. */
  accountNamed(username: string) {
    return this.repo.findUserByUsername(username);
  }
}

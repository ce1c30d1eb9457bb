import { buildRegistration, EN, login, type TestAccount, type TestPortal } from '../helpers.js';

/** An account and a token of it. */
export type Person = TestAccount & { token: string };

export interface UserSpec {
  staff?: boolean;
  /** users.is_project: 1 or 2 for project leaders. */
  project?: number;
  /** The language of the page the user signed in on, which becomes the mail language ('en'); none: the portal's default. */
  language?: 'en' | 'zh-hans';
  realname?: string;
  username?: string;
  email?: string;
}

/** An active account made as an operator makes it (no captcha, no mail), not signed in. */
export async function buildAccount(portal: TestPortal, spec: UserSpec = {}): Promise<TestAccount> {
  const registration = buildRegistration();
  const username = spec.username ?? registration.username!;
  const password = registration.password!;
  const user = await portal.accounts.createActiveUser({
    username,
    email: spec.email ?? registration.email!,
    password,
    realname: spec.realname ?? registration.realname!,
    isStaff: spec.staff,
    isProject: spec.project,
  });
  return { id: user.id, username, email: user.email, password };
}

/** An active account signed in once: its token. */
export async function buildUser(portal: TestPortal, spec: UserSpec = {}): Promise<Person> {
  const account = await buildAccount(portal, spec);
  const headers = spec.language === 'en' ? EN : spec.language ? { 'accept-language': spec.language } : {};
  return { ...account, token: await login(portal.app, account.username, account.password, headers) };
}

/** Several people at once, by role: `buildUsers(portal, { owner: {}, staff: { staff: true } })`. */
export async function buildUsers<K extends string>(portal: TestPortal, specs: Record<K, UserSpec>): Promise<Record<K, Person>> {
  const keys = Object.keys(specs) as K[];
  const people = await Promise.all(keys.map((key) => buildUser(portal, specs[key])));
  return Object.fromEntries(keys.map((key, i) => [key, people[i]])) as Record<K, Person>;
}

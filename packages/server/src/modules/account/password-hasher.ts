import { randomBytes } from 'node:crypto';
import os from 'node:os';
import argon2 from 'argon2';
import type { PasswordHashing } from '../../config.js';

/**
 * Password hashes: argon2id with OWASP's recommended minimum (Password Storage Cheat Sheet: 19 MiB,
 * 2 passes, 1 lane), about 30 ms of CPU a check. node-argon2's defaults (64 MiB, 3 passes, 4 lanes)
 * cost 0.2 s of CPU a check: 10 sign-ins a second took a whole core of two, and under the crowd of
 * bench/mixed-load.ts every user ended up queued for sign-in (p95 8-22 s). A hash keeps its own
 * parameters, so hashes made before still verify as they were made.
 */
const OWASP = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * The parameters of each `PasswordHashing`: OWASP's everywhere but in the API tests, whose portal
 * (test/helpers.ts) asks for argon2's cheapest (1 MiB, 1 pass) so that its hundreds of accounts cost
 * no CPU worth measuring. Only code passes 'fast-for-tests' (buildApp's option); no setting selects it.
 */
const ARGON2_OPTIONS: Record<PasswordHashing, argon2.Options> = {
  owasp: OWASP,
  'fast-for-tests': { ...OWASP, memoryCost: 1024, timeCost: 1 },
};

/**
 * argon2 runs off the event loop already, on libuv's thread pool; but that pool (4 threads)
 * is also where file reads wait, and four hashes at once on two cores leave the event loop little.
 * Under a crowd of sign-ins (bench/mixed-load.ts) downloads waited 8-16 s behind them and every
 * other reply slowed. So at most one hash fewer than the cores runs at once (at least one); the
 * others queue here, and only sign-ins (the portal's and FTP's) wait for them.
 */
const HASHING_SLOTS = Math.max(1, os.availableParallelism() - 1);
let hashing = 0;
const hashQueue: (() => void)[] = [];

async function inHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashing >= HASHING_SLOTS) await new Promise<void>((resolve) => hashQueue.push(resolve));
  else hashing += 1;
  try {
    return await work();
  } finally {
    // The slot passes to the next in line, or is freed.
    const next = hashQueue.shift();
    if (next) next();
    else hashing -= 1;
  }
}

/** Hashes and checks passwords (and other secrets stored as passwords are) with the portal's `PasswordHashing`. */
export class PasswordHasher {
  /** Verified against when there is no hash to check (an unknown user), so both failures take the same time. */
  private readonly dummy: Promise<string>;

  constructor(private readonly hashing: PasswordHashing) {
    this.dummy = this.hash(randomBytes(20).toString('hex'));
  }

  /** A new hash of `password` with this portal's parameters. */
  hash(password: string): Promise<string> {
    return inHashingSlot(() => argon2.hash(password, ARGON2_OPTIONS[this.hashing]));
  }

  /** Whether `password` is the one `hash` was made of (by the hash's own parameters). */
  verify(hash: string, password: string): Promise<boolean> {
    return inHashingSlot(() => argon2.verify(hash, password));
  }

  /** As `verify`; without a hash (no such account), false after the same work. */
  async check(hash: string | undefined, password: string): Promise<boolean> {
    return this.verify(hash ?? (await this.dummy), password);
  }
}

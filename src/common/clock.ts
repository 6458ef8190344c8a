import { randomBytes } from 'node:crypto';

/** The time source; injectable so tests can move time (token expiry, caches, rotation). */
export abstract class Clock {
  abstract now(): Date;
  nowMs(): number {
    return this.now().getTime();
  }
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** The randomness source; injectable so tests can make generated secrets predictable. */
export abstract class RandomSource {
  abstract bytes(length: number): Buffer;
}

export class CryptoRandomSource extends RandomSource {
  bytes(length: number): Buffer {
    return randomBytes(length);
  }
}

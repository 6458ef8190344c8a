import { bundle } from './bundle';

/** The account pages' strings (keys prefixed `account.`). */
export const ACCOUNT = bundle({
  en: {},
  de: {},
});

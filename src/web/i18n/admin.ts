import { bundle } from './bundle';

/** The admin pages' strings (keys prefixed `admin.`). */
export const ADMIN = bundle({
  en: {},
  de: {},
});

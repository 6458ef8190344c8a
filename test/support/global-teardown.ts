import { rmSync } from 'node:fs';
import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env.REGISTRY_TEST_ADMIN_URL;
  const template = process.env.REGISTRY_TEST_TEMPLATE_DB;
  if (adminUrl && template) {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.end();
  }
  const dir = process.env.REGISTRY_TEST_TEMPLATE_DIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
}

import type { DataSource } from 'typeorm';

export class RegistryIdentityRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The registry's name for shared caches: the identity row the migration made, with the
   * database's name, so a copy of the database (a restored backup, a test template's clone)
   * serving as another registry under another name gets a namespace of its own.
   */
  async namespace(): Promise<string> {
    const [row] = (await this.dataSource.query('SELECT namespace, current_database() AS database FROM registry_identity WHERE id = 1')) as {
      namespace: string;
      database: string;
    }[];
    if (!row) throw new Error('registry_identity has no row: run the migrations');
    return `${row.namespace}:${row.database}`;
  }
}

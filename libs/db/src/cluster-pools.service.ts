import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CAIRN_CONFIG, type CairnConfig, databaseClusterNames, HOME_CLUSTER } from '@cairn/config';
import { DataSource } from 'typeorm';
import { poolOptions } from './pool-options';

export { HOME_CLUSTER };

/**
 * One pool per PostgreSQL cluster tenants are placed on (docs/scaling.md): the home cluster's is
 * the shared TypeORM data source; each member cluster of DATABASE_CLUSTERS gets one more, bounded
 * by DATABASE_POOL_MAX like home's. Still no pool per tenant. Members connect lazily (pg opens
 * connections on first use), so a process that never enters a member's tenant holds none there.
 */
@Injectable()
export class ClusterPools implements OnApplicationShutdown {
  private readonly members = new Map<string, DataSource>();

  constructor(
    @InjectDataSource() private readonly home: DataSource,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
  ) {
    for (const cluster of config.database.clusters) {
      this.members.set(
        cluster.name,
        new DataSource({
          type: 'postgres',
          url: cluster.url,
          synchronize: false,
          migrationsRun: false,
          logging: false,
          entities: home.options.entities,
          extra: poolOptions(config, false),
        }),
      );
    }
  }

  /** Every cluster's name, home first. */
  names(): string[] {
    return databaseClusterNames(this.config);
  }

  /** The cluster's data source, initialised on first use. Unknown names throw: placement names a cluster config lost. */
  async dataSource(name: string): Promise<DataSource> {
    if (name === HOME_CLUSTER) return this.home;
    const member = this.members.get(name);
    if (!member) throw new Error(`tenant placed on cluster "${name}", which DATABASE_CLUSTERS does not name`);
    if (!member.isInitialized) await this.initialise(name, member);
    return member;
  }

  private initialising = new Map<string, Promise<DataSource>>();

  private initialise(name: string, member: DataSource): Promise<DataSource> {
    let pending = this.initialising.get(name);
    if (!pending) {
      pending = member.initialize().finally(() => this.initialising.delete(name));
      this.initialising.set(name, pending);
    }
    return pending;
  }

  async onApplicationShutdown(): Promise<void> {
    for (const member of this.members.values()) if (member.isInitialized) await member.destroy();
  }
}

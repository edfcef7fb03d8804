import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'cairn', name: 'tenants' })
export class TenantEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  slug!: string;

  @Column('text')
  name!: string;

  @Column('text', { name: 'schema_name' })
  schemaName!: string;

  @Column('integer', { name: 'schema_version' })
  schemaVersion!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt!: Date | null;

  /** The PostgreSQL cluster its schema lives on: `home` (DATABASE_URL) or a name of DATABASE_CLUSTERS. */
  @Column('text', { default: 'home' })
  cluster!: string;

  /** While a move runs (TenantMover): the cluster it goes to. */
  @Column('text', { name: 'moving_to', nullable: true })
  movingTo!: string | null;

  /** While set, the tenant's tokens and sessions are refused (403 tenant_suspended); its data stays. */
  @Column('timestamptz', { name: 'suspended_at', nullable: true })
  suspendedAt!: Date | null;
}

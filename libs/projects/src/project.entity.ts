import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Lives in each tenant's schema: no `schema` here, the tenant transaction's search_path decides. */
@Entity({ name: 'projects' })
export class ProjectEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  slug!: string;

  @Column('text')
  name!: string;

  @Column('jsonb')
  card!: Record<string, unknown>;

  @Column('timestamptz', { name: 'last_seen_at', nullable: true })
  lastSeenAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

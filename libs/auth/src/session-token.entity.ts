import { type Role } from '@cairn/access';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'cairn', name: 'session_tokens' })
export class SessionTokenEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'tenant_id' })
  tenantId!: string;

  @Column('uuid', { name: 'user_id', nullable: true })
  userId!: string | null;

  @Column('text', { name: 'agent_id', nullable: true })
  agentId!: string | null;

  @Column('text')
  role!: Role;

  /** `['*']` for every project, else project slugs. */
  @Column('text', { array: true })
  projects!: string[];

  /** MCP toolsets; null for the defaults. */
  @Column('text', { array: true, nullable: true })
  toolsets!: string[] | null;

  @Column('text', { name: 'default_project', nullable: true })
  defaultProject!: string | null;

  @Column('text', { nullable: true })
  label!: string | null;

  @Column('bytea', { name: 'token_hash', select: false })
  tokenHash!: Buffer;

  @Column('text')
  hint!: string;

  @Column('text', { name: 'created_by' })
  createdBy!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt!: Date | null;
}

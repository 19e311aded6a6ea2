import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from '../common/auth';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  role: Role;

  /** sha256 of the secret part of the token; the token itself is never stored. */
  @Column({ name: 'secret_hash', type: 'bytea' })
  secretHash: Buffer;

  /** The token's last four characters, so an owner can tell keys apart. */
  @Column({ type: 'text' })
  hint: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}

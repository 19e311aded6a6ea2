import { Entity, PrimaryColumn } from 'typeorm';

/** A club whose read models a migration queued for a rebuild from its history (done at start, before serving). */
@Entity({ name: 'read_model_rebuilds' })
export class ReadModelRebuildEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;
}

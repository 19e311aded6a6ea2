import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UnitOfWork } from './unit-of-work';

export { Replayed } from './unit-of-work';
export type { CommandContext } from './unit-of-work';

/** The unit of work (unit-of-work.ts), injectable. */
@Injectable()
export class Db extends UnitOfWork {
  constructor(ds: DataSource) {
    super(ds);
  }
}

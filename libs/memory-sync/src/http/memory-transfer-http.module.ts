import { Module } from '@nestjs/common';
import { MemorySyncModule } from '../memory-sync.module';
import { MemoryTransferController } from './memory-transfer.controller';
import { NdjsonBodyParser } from './ndjson-body-parser.service';

/** Export and import as JSON Lines over REST, with the body parser the import needs. */
@Module({
  imports: [MemorySyncModule],
  controllers: [MemoryTransferController],
  providers: [NdjsonBodyParser],
})
export class MemoryTransferHttpModule {}

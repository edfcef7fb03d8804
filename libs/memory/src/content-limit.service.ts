import { Inject, Injectable } from '@nestjs/common';
import { BadRequestError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';

/**
 * The configured maximum memory length (MEMORY_CONTENT_MAX_CHARS), checked by MemoryWriter on
 * every store and update after the adapters' schemas ran (they only know the absolute maximum).
 */
@Injectable()
export class ContentLimit {
  constructor(@Inject(CAIRN_CONFIG) private readonly config: CairnConfig) {}

  check(content: string): void {
    const max = this.config.memory.contentMaxChars;
    if (content.length > max) {
      throw new BadRequestError(`content must be at most ${max} characters`, undefined, 'content_too_long');
    }
  }
}

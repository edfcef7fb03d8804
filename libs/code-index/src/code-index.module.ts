import { Module } from '@nestjs/common';
import { EmbeddingsModule, EmbeddingTargetsModule } from '@cairn/embeddings';
import { JobsModule } from '@cairn/jobs';
import { ProjectCardModule } from '@cairn/project-card';
import { ProjectsModule } from '@cairn/projects';
import { SearchModule } from '@cairn/search';
import { SecretsModule } from '@cairn/secrets';
import { SummariesModule } from '@cairn/summaries';
import { CodeBranchesRepository } from './code-branches.repository';
import { CodeChunkEmbeddingTarget } from './code-chunk-embedding-target.service';
import { CodeChunksRepository } from './code-chunks.repository';
import { CodeFilesRepository } from './code-files.repository';
import { CodeQueries } from './code-queries.service';
import { CodeRuns } from './code-runs.service';
import { CodeSymbolsRepository } from './code-symbols.repository';
import { CodeUpload } from './code-upload.service';
import { CodeParser } from './code-parser.service';

/**
 * The code index (issue 25, docs/code-index.md): files, symbols, references and passages per
 * project and branch, and the `code_chunk` embedding target. Imported by the api (through
 * CodeIndexHttpModule), the MCP gateway and the worker (which embeds passages).
 */
@Module({
  imports: [
    ProjectsModule,
    SearchModule,
    EmbeddingsModule,
    EmbeddingTargetsModule,
    JobsModule,
    SecretsModule,
    SummariesModule,
    ProjectCardModule,
  ],
  providers: [
    CodeParser,
    CodeUpload,
    CodeQueries,
    CodeRuns,
    CodeBranchesRepository,
    CodeFilesRepository,
    CodeSymbolsRepository,
    CodeChunksRepository,
    CodeChunkEmbeddingTarget,
  ],
  exports: [CodeQueries, CodeUpload, CodeRuns],
})
export class CodeIndexModule {}

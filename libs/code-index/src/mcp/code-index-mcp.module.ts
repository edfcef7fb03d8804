import { Module } from '@nestjs/common';
import { CodeIndexModule } from '../code-index.module';
import { CodeSearchTool } from './code-search.tool';
import { CodeSymbolTool } from './code-symbol.tool';

/** code_search and code_symbol (toolset harness) in the MCP gateway. */
@Module({ imports: [CodeIndexModule], providers: [CodeSearchTool, CodeSymbolTool] })
export class CodeIndexMcpModule {}

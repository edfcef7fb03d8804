export { ProjectCardModule } from './project-card.module';
export { ProjectCardHttpModule } from './http/project-card-http.module';
export { ProjectCardMcpModule } from './mcp/project-card-mcp.module';
export { ProjectCards } from './project-cards.service';
export { renderCard } from './render-card';
export {
  CARD_LIMITS,
  CARD_VERSIONS_MAX_LIMIT,
  type CommandReason,
  type DerivationSource,
  type DerivedFrom,
  EMPTY_CARD_CONTENT,
  type LayoutEntry,
  type PathReason,
  PROJECT_CARD_SECTIONS,
  type ProjectCardContent,
  type ProjectCardEdit,
  type ProjectCardSection,
  type ProjectCardVersionPage,
  type ProjectCardVersionSummary,
  type ProjectCardView,
} from './contract/project-card.types';
export {
  ProjectCardDto,
  ProjectCardEditDto,
  projectCardChangesSchema,
  projectCardContentSchema,
  projectCardEditSchema,
  projectCardViewSchema,
} from './contract/project-card.dto';

export {
  BadRequestError,
  CairnError,
  ConflictError,
  ForbiddenError,
  MissingTenantContextError,
  NotFoundError,
  type UnauthenticatedCode,
  UnauthenticatedError,
} from './cairn-error';
export { agentIdSchema, displayText, SLUG_PATTERN, slugSchema, stripControlCharacters } from './text';

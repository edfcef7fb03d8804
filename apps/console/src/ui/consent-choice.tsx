import { Checkbox, CheckboxGroup, FieldError, Label, Radio, RadioGroup, Text } from 'react-aria-components';
import { type ConsentDetails, type ConsentRole } from '../api/oauth-api';

export type ProjectScope = 'all' | 'some';

/** What each role lets the application do, in a line (libs/access/src/permissions.ts has the table). */
const ROLE_TEXT: Readonly<Record<ConsentRole, string>> = {
  admin: "everything you can do, managing the workspace's users, tokens and settings included",
  member: 'read and write memories and the knowledge base, maintain memories and decide on proposals',
  orchestrator: 'work like an agent, and review memories and direct the coordination channel',
  agent:
    'read the projects, write its own memories, working memory and knowledge base, and post to the coordination channel',
  reader: 'read only',
};

/**
 * The role offered first. An MCP client is an agent working for the person, and `agent` is the
 * role Cairn gives agents: it reads the project and writes its own memories, without what a
 * person's role adds on top (managing the workspace, deciding proposals, maintenance, directing
 * the channel). A person who wants more picks their own role from the list, one click away.
 * A reader has only their own role to give.
 */
export function defaultRole(details: ConsentDetails): ConsentRole {
  return details.roles.includes('agent') ? 'agent' : details.maxRole;
}

/** The role and the projects the application gets: within the person's own, never more. */
export function AccessChoice({
  details,
  role,
  onRole,
  scope,
  onScope,
  chosen,
  onChosen,
  noProject,
}: {
  readonly details: ConsentDetails;
  readonly role: ConsentRole;
  readonly onRole: (role: ConsentRole) => void;
  readonly scope: ProjectScope;
  readonly onScope: (scope: ProjectScope) => void;
  readonly chosen: string[];
  readonly onChosen: (projects: string[]) => void;
  /** "Only these projects" with none ticked: the person is told to choose one. */
  readonly noProject: boolean;
}) {
  return (
    <section aria-labelledby="consent-access-heading" className="card form">
      <h2 id="consent-access-heading">What it may do</h2>
      <RadioGroup className="radio-group stacked" value={role} onChange={(value) => onRole(value as ConsentRole)}>
        <Label>Role</Label>
        <Text slot="description" className="field-description">
          The application acts with this role, yours at most.
        </Text>
        {details.roles.map((option) => (
          <Radio key={option} value={option}>
            {option}
            {option === details.maxRole && ' (your role)'}: {ROLE_TEXT[option]}
          </Radio>
        ))}
      </RadioGroup>
      <RadioGroup className="radio-group stacked" value={scope} onChange={(value) => onScope(value as ProjectScope)}>
        <Label>Projects</Label>
        <Radio value="all">Every project of {details.tenant.name}, including projects created later</Radio>
        <Radio value="some" isDisabled={details.projects.length === 0}>
          Only the projects I choose
          {details.projects.length === 0 && ' (the workspace has no project yet)'}
        </Radio>
      </RadioGroup>
      {scope === 'some' && (
        <CheckboxGroup className="checkbox-group" value={chosen} onChange={onChosen} isInvalid={noProject}>
          <Label>Projects it may use</Label>
          {details.projects.map((project) => (
            <Checkbox key={project.slug} value={project.slug}>
              {project.name} ({project.slug})
            </Checkbox>
          ))}
          <FieldError className="field-error">Choose at least one project.</FieldError>
        </CheckboxGroup>
      )}
    </section>
  );
}

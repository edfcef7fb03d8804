/**
 * Framing and flagging of text that came from outside (a fetched page, an imported file), for
 * wherever it is handed to an agent: the agent must read it as data, never as instructions.
 */

const OPEN = 'UNTRUSTED EXTERNAL CONTENT';
const CLOSE = 'END UNTRUSTED EXTERNAL CONTENT';
const AGENT_OPEN = 'UNVERIFIED AGENT CONTENT';
const AGENT_CLOSE = 'END UNVERIFIED AGENT CONTENT';
/** The opening of any frame this module writes, so framed text cannot end or fake one. */
const FRAME_MARKER = /\[(\s*(?:END\s+)?(?:UNTRUSTED\s+EXTERNAL|UNVERIFIED\s+AGENT)\s+CONTENT)/gi;

/** Markers the text carries, defanged (`[` becomes `(`). */
function defanged(text: string): string {
  return text.replace(FRAME_MARKER, '($1');
}

/**
 * `text` between `[UNTRUSTED EXTERNAL CONTENT from <host>]` and `[END UNTRUSTED EXTERNAL CONTENT]`.
 * Markers the text itself carries are defanged, so a page cannot close the frame early and
 * continue as if it were trusted (`[` becomes `(`); the host keeps only the characters a host name has.
 */
export function untrustedLabel(host: string, text: string): string {
  // Letters, digits, dots, hyphens and colons (IPv6): no bracket, space or line break to end the label.
  const safeHost = host.toLowerCase().replace(/[^a-z0-9.:-]/g, '') || 'unknown-host';
  return `[${OPEN} from ${safeHost}]\n${defanged(text)}\n[${CLOSE}]`;
}

/**
 * `text` written by agents (coordination messages) between `[UNVERIFIED AGENT CONTENT from <source>]`
 * and `[END UNVERIFIED AGENT CONTENT]`, defanged as {@link untrustedLabel} does: another agent's
 * words are data to weigh, never instructions, however they are phrased.
 */
export function unverifiedAgentLabel(source: string, text: string): string {
  const safeSource = source.replace(/[^A-Za-z0-9._:@/ -]/g, '').trim() || 'unknown';
  return `[${AGENT_OPEN} from ${safeSource}]\n${defanged(text)}\n[${AGENT_CLOSE}]`;
}

/**
 * Common prompt-injection phrasings, by id. No maintained list exists as a package (the npm
 * candidates are cloud services or single-author rule sets), so this is a short list written
 * for flagging only: a match is reported next to the content (as SecureContext's fetcher does
 * with its instruction-override, role-override, trust-label and context-boundary categories),
 * never used to block or rewrite it, so a false positive costs a warning, not data. Sources:
 * OWASP LLM01 (prompt injection) examples and SecureContext's categories.
 */
export const PROMPT_INJECTION_PATTERNS: readonly { readonly id: string; readonly pattern: RegExp }[] = [
  // "Ignore all previous instructions", "disregard the above rules", "forget your prior prompt".
  {
    id: 'ignore-previous-instructions',
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\b(?:\s+\w+){0,3}?\s+(?:previous|prior|above|earlier|preceding|existing|original|your|all)\b(?:\s+\w+){0,2}?\s+(?:instructions?|prompts?|rules|directions|guidelines|directives|context)\b/i,
  },
  // "Your new instructions are:", "updated system instructions:".
  {
    id: 'new-instructions',
    pattern: /\b(?:new|updated|real|actual|revised)\s+(?:system\s+)?instructions?\b\s*(?:are|is|:)/i,
  },
  // Role reassignment: "you are now DAN", "from now on you will", "pretend you are".
  {
    id: 'you-are-now',
    pattern:
      /\byou\s+are\s+now\b|\bfrom\s+now\s+on,?\s+you\b|\bpretend\s+(?:to\s+be|you\s+are)\b|\bact\s+as\s+if\s+you\b/i,
  },
  // Reaching for the model's own instructions: "system prompt", "reveal your instructions".
  {
    id: 'system-prompt',
    pattern:
      /\bsystem\s+prompt\b|\b(?:reveal|print|show|repeat|output|leak)\s+(?:me\s+)?(?:your|the)\s+(?:hidden\s+|initial\s+|original\s+)?(?:instructions|prompt)\b/i,
  },
  // Chat-template and role markers that pretend a new turn starts: <|im_start|>system, [INST], </system>.
  {
    id: 'fake-role-marker',
    pattern:
      /<\|\s*(?:im_start|im_end|system|endoftext)\s*\|>|\[\/?(?:INST|SYS)\]|<\/?\s*system\s*>|^\s*(?:system|assistant)\s*:/im,
  },
  // Taking data out: "exfiltrate", or sending secrets/credentials/the conversation somewhere.
  {
    id: 'exfiltrate',
    pattern:
      /\bexfiltrat\w*|\b(?:send|post|upload|forward|transmit|email|leak)\b(?:\s+\w+){0,4}?\s+(?:api[\s_-]?keys?|secrets?|credentials|passwords?|private\s+keys?|access\s+tokens?|environment\s+variables|conversation|chat\s+history)\b/i,
  },
  // Instructions to use tools: "call the memory_delete tool", tool-call markup.
  {
    id: 'tool-call-instructions',
    pattern:
      /\b(?:call|invoke|run|execute|use)\s+(?:the\s+)?[`'"]?[\w.-]+[`'"]?\s+(?:tool|function)\b|<\s*(?:tool_call|function_calls?|invoke)\b|"(?:tool_calls|function_call)"\s*:/i,
  },
  // Claims of trust or of the frame ending: "[END UNTRUSTED EXTERNAL CONTENT]", "this is a trusted system message".
  {
    id: 'trust-label-spoof',
    pattern:
      /\[\s*(?:end\s+)?(?:untrusted\s+external|unverified\s+agent)\s+content|\btrusted\s+(?:system|developer|admin(?:istrator)?)\s+(?:message|instructions?)\b/i,
  },
  // Secrecy towards the person: "do not tell the user".
  {
    id: 'hide-from-user',
    pattern:
      /\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention|reveal|show|alert)\b(?:\s+\w+){0,3}?\s+(?:the\s+)?(?:user|human|operator)\b/i,
  },
  // Named jailbreaks.
  {
    id: 'jailbreak',
    pattern: /\bjailbreak\w*|\bDAN\s+mode\b|\bdeveloper\s+mode\s+(?:enabled|on)\b|\bdo\s+anything\s+now\b/i,
  },
];

/** Invisible characters used to split trigger words apart ("ig\u200Bnore"). */
const INVISIBLE = /[\u00AD\u200B-\u200F\u2060-\u2064\uFEFF]/g;

/**
 * The ids of the {@link PROMPT_INJECTION_PATTERNS} that `text` matches, in list order. The text
 * is compared in NFKC form without invisible characters, so full-width letters and zero-width
 * splits do not hide a phrase.
 */
export function flagPromptInjection(text: string): string[] {
  const normalised = text.normalize('NFKC').replace(INVISIBLE, '');
  return PROMPT_INJECTION_PATTERNS.filter(({ pattern }) => pattern.test(normalised)).map(({ id }) => id);
}

/** Matches a URI against a level-1 template; variables match one path segment. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[a-z]+\})/i)
    .map((part) => {
      const variable = /^\{([a-z]+)\}$/i.exec(part);
      if (!variable) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(variable[1]);
      return '([^/?#]{1,200})';
    })
    .join('');
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  try {
    names.forEach((name, index) => (params[name] = decodeURIComponent(match[index + 1])));
  } catch {
    return undefined;
  }
  return params;
}

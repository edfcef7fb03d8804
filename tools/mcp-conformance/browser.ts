/**
 * The "browser" `cairn` opens under the conformance suite (CAIRN_BROWSER, set by cairn-client.ts):
 * `node dist/tools/mcp-conformance/browser.js <authorization URL>`. The suite's mock authorization
 * server asks no one anything: its authorization endpoint redirects straight to the redirect URI.
 * So, as a browser would, this GETs the URL and follows the redirects, which end at cairn's own
 * loopback redirect; cairn takes the code from there. Nothing of the flow is done here.
 */
async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) throw new Error('usage: browser.js <url>');
  const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(20_000) });
  await response.body?.cancel();
  process.stderr.write(`browser: ${response.status} from ${new URL(response.url).origin}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`browser: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});

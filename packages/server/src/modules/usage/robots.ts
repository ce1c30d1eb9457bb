/**
 * Crawlers whose visits never count as views: the named search-engine, SEO, archive and AI
 * crawlers, link previewers, and anything calling itself a bot, crawler or spider. Keep this list
 * up to date; it is matched case-insensitively against the User-Agent header. An empty User-Agent
 * is a script, not a reader.
 */
const ROBOT_PATTERNS = [
  'bot\\b',
  'bot/',
  'crawler',
  'crawling',
  'spider',
  'slurp',
  'googlebot',
  'google-inspectiontool',
  'googleother',
  'bingbot',
  'bingpreview',
  'baiduspider',
  'yandex',
  'duckduckbot',
  'sogou',
  '360spider',
  'bytespider',
  'petalbot',
  'applebot',
  'semrush',
  'ahrefs',
  'mj12bot',
  'dotbot',
  'gptbot',
  'chatgpt-user',
  'ccbot',
  'claudebot',
  'anthropic-ai',
  'perplexitybot',
  'facebookexternalhit',
  'twitterbot',
  'linkedinbot',
  'slackbot',
  'discordbot',
  'whatsapp',
  'telegrambot',
  'ia_archiver',
  'archive.org_bot',
  'heritrix',
  'python-requests',
  'python-urllib',
  'wget',
  'curl/',
  'go-http-client',
  'java/',
  'okhttp',
  'libwww-perl',
  'httpclient',
  'lighthouse',
  'pagespeed',
  'uptimerobot',
  'pingdom',
];

const ROBOTS = new RegExp(ROBOT_PATTERNS.join('|'), 'i');

export function isRobot(userAgent: string | undefined): boolean {
  return !userAgent || ROBOTS.test(userAgent);
}

import { describe, expect, it } from 'vitest';
import { headTags } from './site-pages.js';

const site = { publicUrl: 'https://data.example.org', siteVariant: 'portal' as const };

describe("a dataset page's head", () => {
  it('keeps markup in the JSON-LD from ending its script, and escapes the citation tags', () => {
    const jsonLd = JSON.stringify({ '@type': 'Dataset', name: 'Ice </script><script>alert(1)</script> <!-- x' });
    const tags = headTags(
      { kind: 'record', path: '/data/abc/', title: 'Ice', description: 'Ice cores', jsonLd, metaTags: [{ name: 'citation_title', content: 'Ice "cores" <b>&</b>' }] },
      'en',
      site,
    );
    const script = tags.find((t) => t.startsWith('<script'))!;
    const body = script.slice('<script type="application/ld+json">'.length, -'</script>'.length);
    expect(body).not.toContain('<');
    expect(JSON.parse(body)).toEqual(JSON.parse(jsonLd));
    expect(tags).toContain('<meta name="citation_title" content="Ice &quot;cores&quot; &lt;b&gt;&amp;&lt;/b&gt;" />');
  });

  it('has neither for a page of the site', () => {
    const tags = headTags({ kind: 'indexed', path: '/data/', description: 'seo.data' }, 'en', site);
    expect(tags.some((t) => t.includes('ld+json') || t.includes('citation_'))).toBe(false);
  });
});

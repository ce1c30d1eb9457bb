import { describe, expect, it } from 'vitest';
import { AUTHOR_ROLES } from '../domain/metadata.js';
import { CREATOR_ROLES, creditsOf, isCreatorRole } from './creators.js';

type Link = { person: string; role: string };
const credits = (links: Link[]) => {
  const { people, creators, contributors } = creditsOf(
    links,
    (l) => l.person,
    (l) => l.role,
  );
  const show = (list: typeof people) => list.map((c) => [c.link.person, ...c.roles]);
  return { people: show(people), creators: show(creators), contributors: show(contributors) };
};

describe('who a citation names', () => {
  it('makes creators of the roles that made the data, as DataCite and ISO 19115 do, and contributors of the others', () => {
    expect([...CREATOR_ROLES]).toEqual(['resourceProvider', 'principalInvestigator', 'producer', 'owner']);
    expect(AUTHOR_ROLES.filter((role) => !isCreatorRole(role))).toEqual(['manager', 'distributor', 'contactParty', 'processor', 'publisher', 'metadataAuthor']);
    expect(isCreatorRole('nobody')).toBe(false);
  });

  it('cites a data resource provider and leaves a manager a contributor (issue 16: 王芳, manager; 李伟, provider)', () => {
    expect(
      credits([
        { person: '王芳', role: 'manager' },
        { person: '李伟', role: 'resourceProvider' },
      ]),
    ).toEqual({
      people: [
        ['王芳', 'manager'],
        ['李伟', 'resourceProvider'],
      ],
      creators: [['李伟', 'resourceProvider']],
      contributors: [['王芳', 'manager']],
    });
  });

  it("keeps the record's order, each person once where their first link stands, with every role", () => {
    const links: Link[] = [
      { person: 'A', role: 'contactParty' },
      { person: 'B', role: 'principalInvestigator' },
      { person: 'C', role: 'resourceProvider' },
      { person: 'A', role: 'producer' },
      { person: 'D', role: 'owner' },
      { person: 'E', role: 'metadataAuthor' },
      { person: 'B', role: 'principalInvestigator' },
      { person: 'E', role: 'publisher' },
    ];
    expect(credits(links)).toEqual({
      people: [
        ['A', 'contactParty', 'producer'],
        ['B', 'principalInvestigator'],
        ['C', 'resourceProvider'],
        ['D', 'owner'],
        ['E', 'metadataAuthor', 'publisher'],
      ],
      creators: [
        ['A', 'contactParty', 'producer'],
        ['B', 'principalInvestigator'],
        ['C', 'resourceProvider'],
        ['D', 'owner'],
      ],
      contributors: [['E', 'metadataAuthor', 'publisher']],
    });
  });

  it('has no creator when no one has a creator role (the formats then name the data centre), and drops unknown roles', () => {
    expect(
      credits([
        { person: 'A', role: 'distributor' },
        { person: 'B', role: 'legacy' },
      ]),
    ).toEqual({
      people: [['A', 'distributor'], ['B']],
      creators: [],
      contributors: [['A', 'distributor'], ['B']],
    });
    expect(credits([])).toEqual({ people: [], creators: [], contributors: [] });
  });
});

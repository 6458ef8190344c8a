import { DEFAULT_PRIMARY_COLOR, DEFAULT_SITE_NAME, toBrandingDto } from './branding.mapper';

describe('toBrandingDto', () => {
  it('falls back to the install wizard name, then the built-in name', () => {
    expect(toBrandingDto(null, null)).toEqual({
      siteName: DEFAULT_SITE_NAME,
      logoUrl: null,
      primaryColor: DEFAULT_PRIMARY_COLOR,
      links: [],
    });
    expect(toBrandingDto(null, 'Wizard').siteName).toBe('Wizard');
    expect(toBrandingDto({ siteName: null, logoUrl: null, primaryColor: null, links: [] }, 'Wizard').siteName).toBe('Wizard');
    expect(toBrandingDto({ siteName: 'Admin', logoUrl: null, primaryColor: null, links: [] }, 'Wizard').siteName).toBe('Admin');
  });

  it('passes stored links through as label and url only', () => {
    const links = [{ label: 'Docs', url: 'https://docs.example.org', extra: 1 } as { label: string; url: string }];
    expect(toBrandingDto({ siteName: null, logoUrl: null, primaryColor: '#abcdef', links }, null)).toMatchObject({
      primaryColor: '#abcdef',
      links: [{ label: 'Docs', url: 'https://docs.example.org' }],
    });
  });
});

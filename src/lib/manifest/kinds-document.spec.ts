import { readKindsDocument } from './index';

describe('readKindsDocument', () => {
  it('reads the GET /api/kinds shape', () => {
    const document = readKindsDocument({
      kinds: [
        {
          key: 'theme',
          label: 'Theme',
          description: 'Colour schemes',
          extensionFields: [{ key: 'colors', type: 'string[]', enum: ['dark'], maxLength: 10 }],
        },
        { key: 'tool', label: 'Tool', description: null, extensionFields: [] },
        { key: 'old', label: 'Old', enabled: false },
      ],
      extensionFields: [{ key: 'stars', type: 'number', required: true }],
    });
    expect(document).toEqual({
      ok: true,
      kinds: [
        {
          key: 'theme',
          label: 'Theme',
          description: 'Colour schemes',
          extensionFields: [{ key: 'colors', type: 'string[]', enum: ['dark'], maxLength: 10 }],
        },
        { key: 'tool', label: 'Tool', description: null, extensionFields: [] },
        { key: 'old', label: 'Old', description: null, enabled: false, extensionFields: [] },
      ],
      globalExtensionFields: [{ key: 'stars', type: 'number', required: true }],
    });
  });

  it('names every problem in a malformed list', () => {
    const document = readKindsDocument({
      kinds: [
        { key: '', label: 3 },
        'theme',
        {
          key: 'tool',
          label: 'Tool',
          extensionFields: [
            { key: 'x', type: 'date' },
            { type: 'string', maxLength: -1 },
          ],
        },
      ],
    });
    expect(document).toEqual({
      ok: false,
      problems: [
        'kinds[0].key: must be a non-empty string',
        'kinds[0].label: must be a string',
        'kinds[1]: must be an object',
        'kinds[2].extensionFields[0].type: must be one of string, number, boolean, string[]',
        'kinds[2].extensionFields[1].key: must be a non-empty string',
        'kinds[2].extensionFields[1].maxLength: must be a whole number',
      ],
    });
  });

  it.each([[null], [[]], [{ kinds: {} }], [{}]])('refuses %j', (value) => {
    expect(readKindsDocument(value)).toEqual({ ok: false, problems: ['must be an object with a "kinds" array'] });
  });
});

'use strict';
// `npm run docs:config`: writes docs/configuration.md from the variable declarations in
// src/config; src/config/configuration-reference.spec.ts fails while the committed page differs.
require('./ts-register');
const fs = require('node:fs');
const path = require('node:path');
const { configurationReference, REFERENCE_PATH } = require('../src/config/configuration-reference');

const target = path.join(__dirname, '..', REFERENCE_PATH);
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, configurationReference());
console.log(`wrote ${REFERENCE_PATH}`);

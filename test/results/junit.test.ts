import { describe, expect, it } from 'vitest'
import { escapeXmlAttribute, escapeXmlText, resultsJunit } from '../../src/results/junit.js'
import { HOSTILE_RESULTS, testOf } from './ci-fixture.js'

const CONTROL = testOf("ansi \u001b[31mred\u001b[0m\tand \ud800 'quote'", 'failed', [], { file: 'test/b.test.ts', failure: 'x\u0000y' })

describe('the JUnit XML of a run', () => {
  it('has a testsuite per file and a testcase per test, agent figures as properties, failures with their assertion and traces, all escaped', () => {
    expect(resultsJunit({ ...HOSTILE_RESULTS, tests: [...HOSTILE_RESULTS.tests, CONTROL] })).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="reagent-flow" tests="7" failures="3" errors="0" skipped="1" time="2.500">',
        '  <testsuite name="test/agent.test.ts" tests="5" failures="1" errors="0" skipped="1" time="0.063" timestamp="2027-01-15T08:00:00">',
        '    <testcase classname="test/agent.test.ts" name="refunds | pipes &amp; &lt;script&gt;alert(1)&lt;/script&gt;" file="test/agent.test.ts" line="7" time="0.013">',
        '      <properties>',
        '        <property name="tokens" value="560"/>',
        '        <property name="usd" value="0.00012"/>',
        '        <property name="turns" value="2"/>',
        '        <property name="tool_calls" value="1"/>',
        '        <property name="runs" value="1"/>',
        '        <property name="pass_rate" value="1"/>',
        '        <property name="golden" value="matched"/>',
        '      </properties>',
        '    </testcase>',
        '    <testcase classname="test/agent.test.ts" name="no agent here" file="test/agent.test.ts" time="0.013"/>',
        '    <testcase classname="test/agent.test.ts" name="refunds reliably" file="test/agent.test.ts" time="0.013">',
        '      <properties>',
        '        <property name="tokens" value="200"/>',
        '        <property name="turns" value="6"/>',
        '        <property name="tool_calls" value="3"/>',
        '        <property name="runs" value="3"/>',
        '        <property name="pass_rate" value="0.666666666667"/>',
        '        <property name="golden" value="written"/>',
        '      </properties>',
        '    </testcase>',
        '    <testcase classname="test/agent.test.ts" name="later" file="test/agent.test.ts" time="0.013">',
        '      <skipped/>',
        '    </testcase>',
        '    <testcase classname="test/agent.test.ts" name="broke before a run" file="test/agent.test.ts" time="0.013">',
        '      <failure message="boom">boom</failure>',
        '    </testcase>',
        '  </testsuite>',
        '  <testsuite name="test/odd,file:name.test.ts" tests="1" failures="1" errors="0" skipped="0" time="0.013" timestamp="2027-01-15T08:00:00">',
        '    <testcase classname="test/odd,file:name.test.ts" name="multi&#10;line *name*" file="test/odd,file:name.test.ts" line="12" time="0.013">',
        '      <properties>',
        '        <property name="tokens" value="420"/>',
        '        <property name="usd" value="0.00009"/>',
        '        <property name="turns" value="3"/>',
        '        <property name="tool_calls" value="2"/>',
        '        <property name="runs" value="1"/>',
        '        <property name="pass_rate" value="0"/>',
        '        <property name="golden" value="none"/>',
        '      </properties>',
        '      <failure message="expected &quot;sk-live-1234567890abcdef&quot; to be called: 100% of $0.01, a&#13;&#10;b">' +
          'expected &quot;sk-live-1234567890abcdef&quot; to be called: 100% of $0.01, a&#13;',
        'b',
        'trace: .reagent/test/b.trace.json</failure>',
        '    </testcase>',
        '  </testsuite>',
        '  <testsuite name="test/b.test.ts" tests="1" failures="1" errors="0" skipped="0" time="0.013" timestamp="2027-01-15T08:00:00">',
        '    <testcase classname="test/b.test.ts" name="ansi \\u001b[31mred\\u001b[0m&#9;and \\ud800 &apos;quote&apos;" file="test/b.test.ts" time="0.013">',
        '      <failure message="x\\u0000y">x\\u0000y</failure>',
        '    </testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    )
  })

  it('escapes the five entities everywhere, and line breaks and tabs also in attributes', () => {
    expect(escapeXmlText(`&<>"'\t\n\r`)).toBe('&amp;&lt;&gt;&quot;&apos;\t\n&#13;')
    expect(escapeXmlAttribute(`&<>"'\t\n\r`)).toBe('&amp;&lt;&gt;&quot;&apos;&#9;&#10;&#13;')
  })

  it('keeps a surrogate pair (an emoji) and writes what XML 1.0 cannot hold as \\u text', () => {
    expect(escapeXmlText('🙂 \u0001 \uffff \udc00')).toBe('🙂 \\u0001 \\uffff \\udc00')
  })
})

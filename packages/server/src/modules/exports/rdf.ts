import { stripIllegalText } from '@portal/shared';
import type { JsonLdDocument, Options } from 'jsonld';

/**
 * The DCAT record as RDF for clients that read no JSON-LD: the JSON-LD document turned into triples by
 * the jsonld processor (`toRDF`, in safe mode: a term it would drop is an error, never a silent loss),
 * then written as Turtle or RDF/XML here. Loaded with the exports that need it.
 */

interface Term {
  termType: 'NamedNode' | 'BlankNode' | 'Literal' | 'DefaultGraph';
  value: string;
  datatype?: { value: string };
  language?: string;
}
export interface Quad {
  subject: Term;
  predicate: Term;
  object: Term;
}

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const LANG_STRING = `${RDF}langString`;

/** The triples of a JSON-LD document whose context is inline (a remote context is refused). */
export async function quadsOf(document: JsonLdDocument): Promise<Quad[]> {
  const jsonld = (await import('jsonld')).default;
  const documentLoader = async (url: string): Promise<never> => {
    throw new Error(`no remote JSON-LD context is read: ${url}`);
  };
  // jsonld.js's safe mode (an error for anything its expansion would drop) is missing from its types' options.
  const options: Options.ToRdf & { safe: boolean } = { documentLoader, safe: true };
  // Without a `format`, toRDF gives the dataset's quads (the types say only `object`).
  return (await jsonld.toRDF(document, options)) as Quad[];
}

/** Prefixes of the DCAT record's vocabularies (json-ld.ts DCAT_CONTEXT) and RDF's own. */
export function prefixesOf(context: Record<string, string>): [string, string][] {
  return [['rdf', RDF], ...Object.entries(context)];
}

/** The namespace and local name of an IRI, split after its last `#` or `/`, when the local name is an XML and Turtle name. */
function splitIri(iri: string): [string, string] | null {
  const at = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/'));
  const local = iri.slice(at + 1);
  return at > 0 && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(local) ? [iri.slice(0, at + 1), local] : null;
}

/** Subjects in the order they first appear, each with its triples. */
function bySubject(quads: readonly Quad[]): Map<string, Quad[]> {
  const subjects = new Map<string, Quad[]>();
  for (const quad of quads) {
    const key = `${quad.subject.termType}|${quad.subject.value}`;
    subjects.set(key, [...(subjects.get(key) ?? []), quad]);
  }
  return subjects;
}

// ---- Turtle (W3C RDF 1.1 Turtle) ----

/**
 * An IRI in angle brackets, the characters IRIREF forbids percent-encoded: a `\u` escape of one of them
 * is no escape Turtle allows (n3 refuses `\u003C`), and percent-encoded the IRI is the one the other
 * forms write (doiUrl already encodes a DOI's `<` and `>`).
 */
function turtleIri(iri: string): string {
  return `<${iri.replace(/[\u0000-\u0020<>"{}|^`\\]/g, (c) => encodeURIComponent(c))}>`;
}

/** A string in double quotes: quote, backslash and line breaks escaped, other controls as \u escapes. */
function turtleString(text: string): string {
  const escapes: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return `"${text.replace(/["\\\n\r\t]|[\u0000-\u001f\u007f]/g, (c) => escapes[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`)}"`;
}

export function turtle(quads: readonly Quad[], prefixes: [string, string][]): string {
  const used = new Map(prefixes.map(([prefix, namespace]) => [namespace, prefix]));
  const name = (iri: string) => {
    const split = splitIri(iri);
    const prefix = split && used.get(split[0]);
    return prefix && split ? `${prefix}:${split[1]}` : turtleIri(iri);
  };
  const term = (t: Term): string => {
    if (t.termType === 'BlankNode') return t.value.startsWith('_:') ? t.value : `_:${t.value}`;
    if (t.termType === 'NamedNode') return name(t.value);
    const datatype = t.datatype?.value ?? XSD_STRING;
    if (t.language) return `${turtleString(stripIllegalText(t.value))}@${t.language}`;
    return datatype === XSD_STRING || datatype === LANG_STRING ? turtleString(stripIllegalText(t.value)) : `${turtleString(stripIllegalText(t.value))}^^${name(datatype)}`;
  };
  const lines = prefixes.map(([prefix, namespace]) => `@prefix ${prefix}: ${turtleIri(namespace)} .`);
  for (const triples of bySubject(quads).values()) {
    lines.push('');
    lines.push(`${term(triples[0]!.subject)}`);
    triples.forEach((quad, index) => {
      const predicate = quad.predicate.value === `${RDF}type` ? 'a' : name(quad.predicate.value);
      lines.push(`    ${predicate} ${term(quad.object)}${index === triples.length - 1 ? ' .' : ' ;'}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

// ---- RDF/XML (W3C RDF 1.1 XML Syntax) ----

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;', '\n': '&#10;', '\t': '&#9;' };
const xmlText = (text: string) => stripIllegalText(text).replace(/[&<>\r]/g, (c) => XML_ESCAPES[c]!);
const xmlAttribute = (text: string) => stripIllegalText(text).replace(/[&<>"\r\n\t]/g, (c) => XML_ESCAPES[c]!);
/** A blank node's label as an rdf:nodeID (an XML name). */
const nodeId = (label: string) =>
  label
    .replace(/^_:/, '')
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .replace(/^(?![A-Za-z_])/, 'n');

export function rdfXml(quads: readonly Quad[], prefixes: [string, string][]): string {
  const namespaces = new Map(prefixes.map(([prefix, namespace]) => [namespace, prefix]));
  const qualifiedName = (iri: string): string => {
    const split = splitIri(iri);
    if (!split) throw new Error(`an RDF/XML property needs a local name: ${iri}`);
    let prefix = namespaces.get(split[0]);
    if (!prefix) {
      prefix = `ns${namespaces.size}`;
      namespaces.set(split[0], prefix);
    }
    return `${prefix}:${split[1]}`;
  };
  const body: string[] = [];
  for (const triples of bySubject(quads).values()) {
    const subject = triples[0]!.subject;
    body.push(subject.termType === 'BlankNode' ? `  <rdf:Description rdf:nodeID="${nodeId(subject.value)}">` : `  <rdf:Description rdf:about="${xmlAttribute(subject.value)}">`);
    for (const { predicate, object } of triples) {
      const element = qualifiedName(predicate.value);
      if (object.termType === 'NamedNode') body.push(`    <${element} rdf:resource="${xmlAttribute(object.value)}"/>`);
      else if (object.termType === 'BlankNode') body.push(`    <${element} rdf:nodeID="${nodeId(object.value)}"/>`);
      else {
        const datatype = object.datatype?.value ?? XSD_STRING;
        const attribute = object.language
          ? ` xml:lang="${xmlAttribute(object.language)}"`
          : datatype === XSD_STRING || datatype === LANG_STRING
            ? ''
            : ` rdf:datatype="${xmlAttribute(datatype)}"`;
        body.push(`    <${element}${attribute}>${xmlText(object.value)}</${element}>`);
      }
    }
    body.push('  </rdf:Description>');
  }
  const declarations = [...namespaces].map(([namespace, prefix]) => `\n    xmlns:${prefix}="${xmlAttribute(namespace)}"`).join('');
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<rdf:RDF${declarations}>`, ...body, '</rdf:RDF>', ''].join('\n');
}

/**
 * compose.yaml, the nginx config and the Kubernetes examples (no Docker or cluster here): each YAML file
 * parses, the pieces name each other consistently, and every setting they give Vigil is one its config
 * accepts (the same loadConfig the server runs).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config.ts';

type Doc = Record<string, unknown>;
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** Every document of a YAML file; fails on any syntax error or warning. */
function parse(path: string): Doc[] {
  const docs = parseAllDocuments(read(path));
  assert.ok(Array.isArray(docs), path);
  for (const d of docs) {
    assert.deepEqual(d.errors.map((e) => e.message), [], path);
    assert.deepEqual(d.warnings.map((e) => e.message), [], path);
  }
  return docs.map((d) => d.toJS() as Doc);
}

const at = (o: unknown, ...path: Array<string | number>): unknown => path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

describe('compose.yaml', () => {
  const [compose] = parse('compose.yaml');
  const services = at(compose, 'services') as Record<string, Doc>;

  it('runs two replicas of the image, PostgreSQL, Redis, a migration step and nginx in front', () => {
    assert.deepEqual(Object.keys(services).sort(), ['data', 'lb', 'migrate', 'postgres', 'redis', 'vigil']);
    assert.equal(at(services.vigil, 'deploy', 'replicas'), 2);
    assert.deepEqual(at(services.migrate, 'command'), ['node', 'bin/vigil.js', 'migrate']);
    assert.equal(at(services.vigil, 'depends_on', 'migrate', 'condition'), 'service_completed_successfully');
    assert.match(String(at(services.lb, 'image')), /^nginx:/);
    assert.deepEqual(at(services.lb, 'volumes'), ['./deploy/nginx/nginx.conf:/etc/nginx/nginx.conf:ro']);
  });

  it('gives every replica an environment Vigil accepts, on PostgreSQL and Redis, with one datasets volume', () => {
    const env = Object.fromEntries(Object.entries(at(services.vigil, 'environment') as Record<string, string>).map(([k, v]) => [k, v.replace(/\$\{[^}]+\}/g, 'x'.repeat(40))]));
    const config = loadConfig(env);
    assert.match(config.databaseUrl ?? '', /^postgres:\/\/.*@postgres:5432\/vigil$/);
    assert.equal(config.redisUrl, 'redis://redis:6379');
    assert.equal(config.databasePoolSize, 10);
    assert.equal(config.dataDir, '/data');
    assert.deepEqual(at(services.vigil, 'volumes'), ['datasets:/data']);
    assert.ok((at(services.data, 'volumes') as string[]).includes('datasets:/data'));
    assert.ok(Object.hasOwn(at(compose, 'volumes') as Doc, 'datasets'));
  });

  it('nginx balances over the vigil service on the port Vigil listens on', () => {
    const conf = read('deploy/nginx/nginx.conf');
    const port = loadConfig({}).port;
    assert.match(conf, new RegExp(`server vigil:${port} resolve;`));
    assert.match(conf, /proxy_pass http:\/\/vigil;/);
    assert.match(conf, /X-Forwarded-For \$proxy_add_x_forwarded_for/);
    assert.equal((conf.match(/\{/g) ?? []).length, (conf.match(/\}/g) ?? []).length, 'balanced braces');
  });
});

describe('deploy/k8s', () => {
  const files = readdirSync(new URL('../../deploy/k8s/', import.meta.url)).filter((f) => f.endsWith('.yaml')).sort();
  const docs = files.flatMap((f) => parse(`deploy/k8s/${f}`));
  const byKind = (kind: string) => docs.filter((d) => d.kind === kind);

  it('every file parses and the kustomization lists them all', () => {
    const [kustomization] = byKind('Kustomization');
    assert.deepEqual([...(at(kustomization, 'resources') as string[])].sort(), files.filter((f) => f !== 'kustomization.yaml'));
    for (const d of docs) assert.ok(typeof d.apiVersion === 'string' && typeof d.kind === 'string');
  });

  it('the Deployment runs several replicas with /healthz and /readyz probes on Vigil\'s port, non-root', () => {
    const [deployment] = byKind('Deployment');
    assert.ok(Number(at(deployment, 'spec', 'replicas')) >= 2);
    const container = at(deployment, 'spec', 'template', 'spec', 'containers', 0) as Doc;
    assert.equal(at(container, 'ports', 0, 'containerPort'), loadConfig({}).port);
    assert.equal(at(container, 'livenessProbe', 'httpGet', 'path'), '/healthz');
    assert.equal(at(container, 'readinessProbe', 'httpGet', 'path'), '/readyz');
    assert.equal(at(deployment, 'spec', 'template', 'spec', 'securityContext', 'runAsNonRoot'), true);
    const [service] = byKind('Service');
    assert.deepEqual(at(service, 'spec', 'selector'), at(deployment, 'spec', 'selector', 'matchLabels'));
    const [pvc] = byKind('PersistentVolumeClaim');
    assert.deepEqual(at(pvc, 'spec', 'accessModes'), ['ReadWriteMany']);
    assert.equal(at(deployment, 'spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName'), at(pvc, 'metadata', 'name'));
  });

  it('the ConfigMap and Secret make a configuration Vigil accepts; the Job runs the migration command', () => {
    const [configMap] = byKind('ConfigMap');
    const [secret] = byKind('Secret');
    const config = loadConfig({ ...(at(configMap, 'data') as Record<string, string>), ...(at(secret, 'stringData') as Record<string, string>) });
    assert.ok(config.databaseUrl && config.redisUrl && config.secretKey && config.adminToken);
    assert.equal(config.redisCluster, false);
    const [job] = byKind('Job');
    assert.deepEqual(at(job, 'spec', 'template', 'spec', 'containers', 0, 'command'), ['node', 'bin/vigil.js', 'migrate']);
  });
});

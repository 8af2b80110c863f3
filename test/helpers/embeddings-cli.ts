import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from "./fake-openai-embeddings-server.js";
import { tempFolders, tempTree } from "./skill-tree.js";

type SkillTree = ReturnType<typeof tempTree>;

/** What a test of the CLI's `--embeddings` works with; read its fields inside tests, once the hooks have run. */
export interface EmbeddingsCli {
  /** The local server speaking OpenAI's embeddings API; its requests are cleared before each test. */
  readonly embeddings: FakeEmbeddingsServer;
  /** The skill library, made once for the file. */
  readonly library: SkillTree;
  /** The vector cache folder (`XDG_CACHE_HOME`), new for each test. */
  readonly cache: string;
  /** The environment that sends the CLI's embeddings requests to the server and its vectors to the cache. */
  env(): Record<string, string>;
}

/**
 * Registers the hooks of a test file of the CLI's `--embeddings`: the server and a library that
 * `addSkills` fills (prefix `prefix`) for the whole file, a new vector cache for each test.
 */
export function useEmbeddingsCli(prefix: string, addSkills: (library: SkillTree) => void): EmbeddingsCli {
  const folders = tempFolders();
  let embeddings: FakeEmbeddingsServer | undefined;
  let library: SkillTree | undefined;
  let cache: string | undefined;
  beforeAll(async () => {
    embeddings = await startFakeEmbeddingsServer();
    library = tempTree(prefix);
    addSkills(library);
  });
  afterAll(async () => {
    await embeddings?.close();
    library?.cleanup();
  });
  beforeEach(() => {
    embeddings!.requests.length = 0;
    embeddings!.failWith = 0;
    cache = folders.make("skillset-cache-");
  });
  afterEach(() => folders.cleanup());
  return {
    get embeddings() {
      return embeddings!;
    },
    get library() {
      return library!;
    },
    get cache() {
      return cache!;
    },
    env: () => ({ OPENAI_BASE_URL: embeddings!.url, XDG_CACHE_HOME: cache! }),
  };
}

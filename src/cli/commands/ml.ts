import type { Command } from "@commander-js/extra-typings";
import type { JsonObject, MLBackendWrite } from "../../client/types.js";
import { examples, idArgument, ParamFlags, type CommandKit } from "./common.js";

const ML_COLUMNS = ["id", "title", "url", "state", "model_version", "is_interactive", "project"];

/** `ml`: ML backends (model servers) registered with a project, in the official SDK's shape. */
export function mlCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("ml").description("ML backends");
  examples(group, ["dmq ml list 1", "dmq ml create -p url=http://127.0.0.1:9090 -p project=1"]);

  const list = group.command("list").description("a project's ML backends").argument("<project>", "project id", idArgument);
  list.action((project) => kit.run(async (session) => session.print(await (await session.client()).ml.list(project), ML_COLUMNS)));
  examples(list, ["dmq ml list 1 --format table"]);

  const create = group.command("create").description("register a model server with a project (url and project required)");
  const fields = new ParamFlags(create, "an ML backend field: url, project, title, is_interactive, auth_method…");
  create.action(() =>
    kit.run(async (session) =>
      session.print(await (await session.client()).ml.create(fields.values as unknown as MLBackendWrite), ML_COLUMNS),
    ),
  );
  examples(create, ["dmq ml create -p url=http://127.0.0.1:9090 -p project=1 -p title=mymodel"]);

  const get = group.command("get").description("one ML backend (its state checked first)").argument("<id>", "ML backend id", idArgument);
  get.action((id) => kit.run(async (session) => session.print(await (await session.client()).ml.get(id), ML_COLUMNS)));
  examples(get, ["dmq ml get 1"]);

  const update = group
    .command("update")
    .description("change an ML backend (the server checks the model server: give url and project too)")
    .argument("<id>", "ML backend id", idArgument);
  const changes = new ParamFlags(update);
  update.action((id) =>
    kit.run(async (session) =>
      session.print(await (await session.client()).ml.update(id, changes.values as unknown as MLBackendWrite), ML_COLUMNS),
    ),
  );
  examples(update, ["dmq ml update 1 -p url=http://127.0.0.1:9090 -p project=1 -p title=renamed"]);

  const remove = group.command("delete").description("unregister an ML backend").argument("<id>", "ML backend id", idArgument);
  remove.action((id) =>
    kit.run(async (session) => {
      await (await session.client()).ml.delete(id);
      session.printEmpty();
    }),
  );
  examples(remove, ["dmq ml delete 1"]);

  const train = group
    .command("train")
    .description("ask the model server to train (START_TRAINING)")
    .argument("<id>", "ML backend id", idArgument);
  train.action((id) =>
    kit.run(async (session) => {
      await (await session.client()).ml.train(id);
      session.printEmpty();
    }),
  );
  examples(train, ["dmq ml train 1"]);

  const versions = group.command("versions").description("the model server's versions").argument("<id>", "ML backend id", idArgument);
  versions.action((id) => kit.run(async (session) => session.print(await (await session.client()).ml.listModelVersions(id))));
  examples(versions, ["dmq ml versions 1"]);

  const test = group
    .command("predict-test")
    .description("send one random task of the project to the model server; nothing is stored")
    .argument("<id>", "ML backend id", idArgument);
  test.action((id) => kit.run(async (session) => session.print(await (await session.client()).ml.testPredict(id))));
  examples(test, ["dmq ml predict-test 1"]);

  const interactive = group
    .command("interactive")
    .description("one task with a context sent to an interactive backend")
    .argument("<id>", "ML backend id", idArgument);
  const request = new ParamFlags(interactive, "task (required) and context");
  interactive.action((id) =>
    kit.run(async (session) =>
      session.print(await (await session.client()).ml.predictInteractive(id, request.values as { task: number; context?: JsonObject })),
    ),
  );
  examples(interactive, ["dmq ml interactive 1 -p task=3 -p context=@context.json"]);
}

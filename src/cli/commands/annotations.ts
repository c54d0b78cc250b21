import { Option, type Command } from "@commander-js/extra-typings";
import type { AnnotationCreate, PredictionCreate, PredictionListParams } from "../../client/types.js";
import { positiveInt } from "../params.js";
import { examples, idArgument, intParam, ParamFlags, type CommandKit } from "./common.js";
import { recordCommands } from "./records.js";

const ANNOTATION_COLUMNS = ["id", "task", "completed_by", "was_cancelled", "ground_truth", "lead_time", "created_at"];
const PREDICTION_COLUMNS = ["id", "task", "model_version", "score", "created_at"];

/** `annotations` and `predictions`: the results attached to tasks. */
export function resultCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const annotations = program.command("annotations").description("annotations");
  examples(annotations, ["dmq annotations list 1", "dmq annotations get 5"]);
  const list = annotations.command("list").description("a task's annotations").argument("<task>", "task id", idArgument);
  list.action((task) =>
    kit.run(async (session) => session.print(await (await session.client()).annotations.list(task), ANNOTATION_COLUMNS)),
  );
  examples(list, ["dmq annotations list 1 --format table"]);

  const create = annotations.command("create").description("a new annotation of a task").argument("<task>", "task id", idArgument);
  const fields = new ParamFlags(create, "an annotation field: result, was_cancelled, ground_truth, lead_time…");
  create.action((task) =>
    kit.run(async (session) =>
      session.print(await (await session.client()).annotations.create(task, fields.values as AnnotationCreate), ANNOTATION_COLUMNS),
    ),
  );
  examples(create, ["dmq annotations create 1 -p result=@result.json -p lead_time=3.5"]);

  recordCommands(annotations, kit, {
    noun: "annotation",
    columns: ANNOTATION_COLUMNS,
    pick: (client) => client.annotations,
    updateExample: "dmq annotations update 4 -p ground_truth=true",
  });

  const predictions = program.command("predictions").description("predictions");
  examples(predictions, ["dmq predictions list --task 1", "dmq predictions get 3"]);
  const plist = predictions
    .command("list")
    .description("predictions of a task or a project")
    .addOption(new Option("--task <id>", "task id").argParser(positiveInt))
    .addOption(new Option("--project <id>", "project id").argParser(positiveInt));
  const listParams = new ParamFlags(plist, "a list parameter: task, project");
  plist.action((options) =>
    kit.run(async (session) => {
      const params = listParams.values;
      const task = options.task ?? intParam(params["task"], "--param task");
      const project = options.project ?? intParam(params["project"], "--param project");
      const query: PredictionListParams = { ...(task === undefined ? {} : { task }), ...(project === undefined ? {} : { project }) };
      session.print(await (await session.client()).predictions.list(query), PREDICTION_COLUMNS);
    }),
  );
  examples(plist, ["dmq predictions list --task 1", "dmq predictions list --project 1 --format table"]);

  const pcreate = predictions.command("create").description("a new prediction for a task");
  const pfields = new ParamFlags(pcreate, "a prediction field: task, result, score, model_version");
  pcreate.action(() =>
    kit.run(async (session) =>
      session.print(await (await session.client()).predictions.create(pfields.values as PredictionCreate), PREDICTION_COLUMNS),
    ),
  );
  examples(pcreate, ["dmq predictions create -p task=1 -p result=@result.json -p score=0.9 -p model_version=v2"]);

  recordCommands(predictions, kit, {
    noun: "prediction",
    columns: PREDICTION_COLUMNS,
    pick: (client) => client.predictions,
    updateExample: "dmq predictions update 2 -p score=0.5",
  });
}

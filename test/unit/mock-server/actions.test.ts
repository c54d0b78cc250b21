import { describe, expect, test } from "vitest";
import { actionList, isRegistered } from "../../../mock-server/actions/registry.js";

describe("the action list", () => {
  test("is exactly the community default list (docs/reference/actions-endpoint.md#listing-actions)", () => {
    const expected = [
      {
        id: "retrieve_tasks_predictions",
        title: "Retrieve Predictions",
        order: 90,
        permission: "predictions.any",
        dialog: {
          title: "Retrieve Predictions",
          text: "Send the selected tasks to all ML backends connected to the project.This operation might be abruptly interrupted due to a timeout. The recommended way to get predictions is to update tasks using the Label Studio API.Please confirm your action.",
          type: "confirm",
        },
      },
      {
        id: "predictions_to_annotations",
        title: "Create Annotations From Predictions",
        order: 91,
        permission: "tasks.change",
        dialog: {
          title: "Create Annotations From Predictions",
          text: "Create annotations from predictions using selected predictions set for each selected task. Your account will be assigned as an owner to those annotations. ",
          type: "confirm",
          form: null,
        },
      },
      {
        id: "remove_duplicates",
        title: "Remove Duplicated Tasks",
        order: 95,
        permission: "projects.change",
        experimental: false,
        dialog: {
          text: "Confirm that you want to remove duplicated tasks with the same data fields. Duplicated tasks will be deleted and all annotations will be moved to the first task from duplicated tasks. Also Source Storage Links will be restored if at least one duplicated task has a storage link. Warning: Task assignments (enterprise only) won't be saved.",
          type: "confirm",
        },
      },
      {
        id: "delete_tasks",
        title: "Delete Tasks",
        order: 100,
        permission: "tasks.delete",
        reload: true,
        dialog: { text: "You are going to delete the selected tasks. Please confirm your action.", type: "confirm" },
      },
      {
        id: "delete_tasks_annotations",
        title: "Delete Annotations",
        order: 101,
        permission: ["tasks.change", "annotations.delete"],
        dialog: {
          text: "You are going to delete annotations from the selected tasks.\nYou can select specific annotators to delete annotations for.\nPlease confirm your action.",
          type: "confirm",
          form: null,
        },
      },
      {
        id: "delete_tasks_predictions",
        title: "Delete Predictions",
        order: 102,
        permission: "predictions.any",
        dialog: { text: "You are going to delete all predictions from the selected tasks. Please confirm your action.", type: "confirm" },
      },
    ];
    expect(JSON.stringify(actionList())).toBe(JSON.stringify(expected));
  });

  test("hidden and experimental community actions are registered; enterprise ones are not", () => {
    for (const id of ["next_task", "propagate_annotations", "rename_labels", "cache_labels", "add_data_field"])
      expect(isRegistered(id)).toBe(true);
    for (const id of ["delete_reviewers", "delete_annotators", "delete_ground_truths", "delete_tasks_reviews", "nope"])
      expect(isRegistered(id)).toBe(false);
  });
});

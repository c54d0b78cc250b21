/** Label Studio's `DATA_UPLOAD_MAX_MEMORY_SIZE` default (`label_studio/core/settings/base.py`): 250 MiB. */
export const DATA_UPLOAD_MAX_MEMORY_SIZE = 250 * 1024 * 1024;

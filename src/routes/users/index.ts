// Users area (docs/api-contract.md §Users), mounted at /api/users, Bearer.
import { areaOf } from "../named-route";
import { changeEmailRoute } from "./change-email";
import { changePasswordRoute } from "./change-password";
import { deleteAccountRoute } from "./delete-account";
import { readAccountRoute } from "./read-account";
import { updateProfileRoute } from "./update-profile";

export const userRoutes = areaOf(readAccountRoute, updateProfileRoute, changePasswordRoute, changeEmailRoute, deleteAccountRoute);

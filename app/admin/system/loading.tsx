export { PageLoading as default } from "@/components/PageLoading";

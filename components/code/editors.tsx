"use client";

import { useEffect, useRef } from "react";
import Editor, { DiffEditor, type DiffOnMount } from "@monaco-editor/react";
import { useLocalMonaco } from "./monaco-setup";
import type { AnswerKind } from "@/lib/benchmarks/module";

/** The editor languages of benchmarks' answers, and plain text. */
export type CodeLanguage = AnswerKind["language"] | "plaintext";

const SHARED = {
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 13,
  automaticLayout: true,
  wordWrap: "on" as const,
};

export interface CodeEditorProps {
  value: string;
  language: CodeLanguage;
  readOnly?: boolean;
  height?: number | string;
  onChange?: (value: string) => void;
  label: string;
}

export function CodeEditorImpl({ value, language, readOnly = false, height = 320, onChange, label }: CodeEditorProps) {
  useLocalMonaco();
  return (
    <div data-testid="code-editor" data-language={language} className="overflow-hidden rounded border border-stone-300">
      <Editor
        height={height}
        language={language}
        value={value}
        onChange={(v) => onChange?.(v ?? "")}
        options={{ ...SHARED, readOnly, ariaLabel: label, domReadOnly: readOnly }}
      />
    </div>
  );
}

export interface CodeDiffProps {
  original: string;
  modified: string;
  language: CodeLanguage;
  height?: number | string;
  label: string;
}

export function CodeDiffImpl({ original, modified, language, height = 320, label }: CodeDiffProps) {
  useLocalMonaco();
  // The wrapper would dispose the two text models while the diff widget still holds them (Monaco
  // then throws "TextModel got disposed before DiffEditorWidget model got reset" on leaving the
  // page): it keeps them, and they are disposed here once the widget is gone.
  const models = useRef<ReturnType<Parameters<DiffOnMount>[0]["getModel"]>>(null);
  useEffect(
    () => () => {
      const held = models.current;
      setTimeout(() => {
        held?.original.dispose();
        held?.modified.dispose();
      }, 0);
    },
    [],
  );
  return (
    <div data-testid="code-diff" className="overflow-hidden rounded border border-stone-300">
      <DiffEditor
        height={height}
        language={language}
        original={original}
        modified={modified}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(editor) => {
          models.current = editor.getModel();
        }}
        options={{
          ...SHARED,
          readOnly: true,
          renderSideBySide: original !== "",
          originalEditable: false,
          ariaLabel: label,
        }}
      />
    </div>
  );
}

;;; dgnkit.el --- NetHack dungeon.def: major mode and dgn-lsp through Eglot  -*- lexical-binding: t; -*-

;; Copyright (c) The dgnkit contributors
;; SPDX-License-Identifier: MIT OR Apache-2.0

;; Keywords: languages, games
;; Package-Requires: ((emacs "27.1"))

;;; Commentary:

;; `dgnkit-mode' edits NetHack's dungeon description language (dungeon.def,
;; the input of dgn_comp): highlighting, `#' comments, and the dgn-lsp
;; language server through Eglot (diagnostics, hover, definition, ...).
;;
;;   (add-to-list 'load-path "/path/to/dgnkit/editors/emacs")
;;   (require 'dgnkit)
;;   (add-hook 'dgnkit-mode-hook #'eglot-ensure)   ; start dgn-lsp automatically
;;
;; dgn-lsp comes from a dgnkit checkout: cargo install --path lsp-server.
;;
;; NetHack 3.7 describes its dungeon in dat/dungeon.lua.  A file named
;; exactly dungeon.lua opens in `dgnkit-lua-mode' (derived from `lua-mode'
;; when that is installed, else a small Lua mode of its own) and gets the
;; same server; no other Lua file is touched:
;;
;;   (add-hook 'dgnkit-lua-mode-hook #'eglot-ensure)

;;; Code:

(defgroup dgnkit nil
  "NetHack dungeon description files."
  :group 'languages
  :prefix "dgnkit-")

(defcustom dgnkit-server-command
  (list (or (getenv "DGN_LSP") "dgn-lsp"))
  "Command that starts the dgnkit language server."
  :type '(repeat string))

(defcustom dgnkit-target "nethack-3.6"
  "What files are checked against: a game (NetHack 3.4.3, 3.6 or a variant
family, each with its dialect, limits, loader and bones rules) or native,
dgnkit's own format.  The choices are every game dgn-lsp takes whose
compiler reads dungeon.def."
  :type '(choice (const "nethack-3.4.3") (const "nethack-3.6") (const "nle")
                 (const "native")
                 (const "evilhack") (const "unnethack") (const "slashem")
                 (const "dnethack") (const "gnollhack") (const "dynahack")))

(defcustom dgnkit-lua-target "nethack-3.7"
  "What a dungeon.lua is checked against: nethack-3.7 (which reads them),
nethack-5.0 (its release, 5.0.0), native, or one of the games built on 3.7
among the choices."
  :type '(choice (const "nethack-3.7") (const "nethack-5.0") (const "native")
                 (const "xnethack") (const "splicehack") (const "nerfhack")
                 (const "crecellehack")))

(defcustom dgnkit-dialect "vanilla"
  "Dialect of a NetHack variant (slashem, gnollhack, dnethack, ...).
\"vanilla\" (the default) checks in the target's own dialect."
  :type 'string)

(defcustom dgnkit-defines nil
  "Options turned on for %NAME lines, like `dgn check -D NAME'."
  :type '(repeat string))

(defcustom dgnkit-undefines nil
  "Options turned off for %NAME lines, like `dgn check -U NAME'."
  :type '(repeat string))

(defconst dgnkit-keywords
  '("DUNGEON" "ENTRY" "PROTOFILE" "DESCRIPTION" "LEVELDESC" "ALIGNMENT" "LEVALIGN"
    "BRANCH" "CHAINBRANCH" "LEVEL" "RNDLEVEL" "CHAINLEVEL" "RNDCHLEVEL" "RNDCHAINLEVEL"
    "TILESET")
  "Statement keywords, including variants' (TILESET) and the manual's RNDCHAINLEVEL.")

(defconst dgnkit-words
  '("up" "down" "stair" "no_up" "no_down" "portal"
    "town" "hellish" "mazelike" "roguelike"
    "unaligned" "noalign" "chaotic" "neutral" "lawful"
    "iceq" "vecnad" "gtown" "purg" "hdgn")
  "Directions, branch types, descriptions and alignments.")

(defconst dgnkit-font-lock-keywords
  `(("^%[A-Za-z_][A-Za-z0-9_]*" . font-lock-preprocessor-face)
    (,(concat "\\_<" (regexp-opt dgnkit-keywords) "\\_>") . font-lock-keyword-face)
    (,(concat "\\_<" (regexp-opt dgnkit-words) "\\_>") . font-lock-constant-face)
    ("\\_<[a-z][a-z0-9_]*_tileset\\_>" . font-lock-constant-face)
    ("\\(?:^\\|[^[:alnum:]_-]\\)\\(-?[0-9]+\\)\\_>" 1 font-lock-constant-face)
    ;; The level or dungeon a statement defines or names first.
    ("^\\(?:%[A-Za-z_]+[ \t]+\\)?\\(?:DUNGEON\\|BRANCH\\|CHAINBRANCH\\)[ \t]*:[ \t]*\"\\([^\"\n]*\\)\""
     1 font-lock-type-face t)
    ("^\\(?:%[A-Za-z_]+[ \t]+\\)?\\(?:LEVEL\\|RNDLEVEL\\|CHAINLEVEL\\|RNDCHLEVEL\\|RNDCHAINLEVEL\\)[ \t]*:[ \t]*\"\\([^\"\n]*\\)\""
     1 font-lock-function-name-face t))
  "Highlighting for `dgnkit-mode'.")

(defvar dgnkit-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?_ "_" table)
    (modify-syntax-entry ?- "_" table)
    (modify-syntax-entry ?\\ "." table)
    (modify-syntax-entry ?' "." table)
    (modify-syntax-entry ?% "'" table)
    table)
  "Syntax table for `dgnkit-mode': # comments, \"strings\" without escapes.")

;;;###autoload
(define-derived-mode dgnkit-mode prog-mode "Dungeon"
  "Major mode for NetHack's dungeon description language (dungeon.def)."
  :syntax-table dgnkit-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+[ \t]*")
  (setq-local comment-end "")
  (setq-local font-lock-defaults '(dgnkit-font-lock-keywords))
  (setq-local indent-tabs-mode t)
  (setq-local tab-width 8))

;;;###autoload
(dolist (pattern '("/dungeon[^/]*\\.def\\'" "/dngn[^/]*\\.def\\'" "/dungeon[^/]*\\.pdf\\'" "\\.dgn\\'"))
  (add-to-list 'auto-mode-alist (cons pattern 'dgnkit-mode)))

(defconst dgnkit-lua-keywords
  '("and" "break" "do" "else" "elseif" "end" "false" "for" "function" "goto" "if"
    "in" "local" "nil" "not" "or" "repeat" "return" "then" "true" "until" "while")
  "Lua's keywords, for `dgnkit-lua-mode' without `lua-mode'.")

(defvar dgnkit-lua-syntax-table
  (let ((table (make-syntax-table)))
    ;; `--' starts a comment to the end of the line.
    (modify-syntax-entry ?- ". 12" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?' "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?_ "_" table)
    (modify-syntax-entry ?= "." table)
    table)
  "Syntax table for `dgnkit-lua-mode' without `lua-mode'.")

(defvar dgnkit-lua-font-lock-keywords
  `((,(concat "\\_<" (regexp-opt dgnkit-lua-keywords) "\\_>") . font-lock-keyword-face)
    ("\\_<\\(-?[0-9]+\\)\\_>" 1 font-lock-constant-face)
    ("\\_<\\([A-Za-z_][A-Za-z0-9_]*\\)[ \t]*=" 1 font-lock-variable-name-face))
  "Highlighting for `dgnkit-lua-mode' without `lua-mode'.")

(defmacro dgnkit--define-lua-mode (parent)
  "Define `dgnkit-lua-mode' as a mode derived from PARENT."
  `(define-derived-mode dgnkit-lua-mode ,parent "Dungeon.lua"
     "Major mode for NetHack 3.7's dungeon description, dungeon.lua."
     (unless (eq ',parent 'lua-mode)
       (set-syntax-table dgnkit-lua-syntax-table)
       (setq-local comment-start "-- ")
       (setq-local comment-start-skip "--+[ \t]*")
       (setq-local comment-end "")
       (setq-local font-lock-defaults '(dgnkit-lua-font-lock-keywords)))
     (setq-local indent-tabs-mode nil)))

;;;###autoload (autoload 'dgnkit-lua-mode "dgnkit" nil t)
(if (require 'lua-mode nil t)
    (dgnkit--define-lua-mode lua-mode)
  (dgnkit--define-lua-mode prog-mode))

;;;###autoload
(add-to-list 'auto-mode-alist '("/dungeon\\.lua\\'" . dgnkit-lua-mode))

(defun dgnkit--settings ()
  "The dgnkit settings as the server reads them."
  (list :target dgnkit-target
        :luaTarget dgnkit-lua-target
        :dialect dgnkit-dialect
        :defines (vconcat dgnkit-defines)
        :undefines (vconcat dgnkit-undefines)))

(defun dgnkit--workspace-configuration (&optional _server)
  "Answer for `workspace/configuration' and `didChangeConfiguration'."
  (list :dgnkit (dgnkit--settings)))

(defun dgnkit--server-contact (&optional _interactive)
  "The command and initializationOptions Eglot starts dgn-lsp with."
  (append dgnkit-server-command
          (list :initializationOptions (dgnkit--settings))))

(defun dgnkit--setup-eglot ()
  "Register dgn-lsp with Eglot for `dgnkit-mode' (language id dungeon-def)."
  (add-to-list 'eglot-server-programs
               '((dgnkit-mode :language-id "dungeon-def") . dgnkit--server-contact))
  (add-to-list 'eglot-server-programs
               '((dgnkit-lua-mode :language-id "lua") . dgnkit--server-contact))
  (dolist (hook '(dgnkit-mode-hook dgnkit-lua-mode-hook))
    (add-hook hook
              (lambda ()
                (setq-local eglot-workspace-configuration
                            (dgnkit--workspace-configuration))))))

(with-eval-after-load 'eglot
  (dgnkit--setup-eglot))

(provide 'dgnkit)

;;; dgnkit.el ends here

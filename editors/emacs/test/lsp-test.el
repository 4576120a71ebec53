;;; lsp-test.el --- headless check of dgnkit.el with Eglot and the real dgn-lsp  -*- lexical-binding: t; -*-

;; DGN_LSP=/path/to/dgn-lsp emacs --batch -Q -l editors/emacs/test/lsp-test.el
;; Opens editors/test/dungeon.def in `dgnkit-mode', connects Eglot, waits for
;; diagnostics, breaks a bones marker, checks the error, asks for hover and
;; definition.  Then NetHack 3.7: dgnkit's corpus/nethack-3.7.lua copied to
;; a file named dungeon.lua opens in `dgnkit-lua-mode' and gets the server
;; (no errors, a hover with depths, definition of a chain level), while
;; another Lua file is left alone.
;; Prints one line per check and "emacs: N passed, N failed";
;; exits 1 on any failure.

;;; Code:

(require 'package)
(package-initialize)
(require 'cl-lib)
(require 'eglot)
(require 'flymake)

(defconst dgnkit-test-dir
  (file-name-directory (or load-file-name buffer-file-name)))
(add-to-list 'load-path (expand-file-name ".." dgnkit-test-dir))
(require 'dgnkit)

(defvar dgnkit-test-passed 0)
(defvar dgnkit-test-failed 0)
(defconst dgnkit-test-timeout 30)

(defun dgnkit-test-out (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defun dgnkit-test-check (name ok &optional detail)
  (if ok
      (progn (cl-incf dgnkit-test-passed) (dgnkit-test-out "ok - %s" name))
    (cl-incf dgnkit-test-failed)
    (dgnkit-test-out "not ok - %s%s" name (if detail (format ": %s" detail) "")))
  ok)

(defun dgnkit-test-wait (pred)
  "Process events until PRED is true or the timeout passes; return PRED's value."
  (let ((deadline (+ (float-time) dgnkit-test-timeout))
        (value nil))
    (while (and (not (setq value (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    value))

(defun dgnkit-test-errors ()
  ;; Eglot files LSP errors under its own category, `eglot-error'.
  (cl-remove-if-not (lambda (d) (memq (flymake-diagnostic-type d) '(:error eglot-error)))
                    (flymake-diagnostics)))

(defvar dgnkit-test-published 0
  "How many publishDiagnostics notifications Eglot has handled.")
(cl-defmethod eglot-handle-notification :after
  (_server (_method (eql textDocument/publishDiagnostics)) &key &allow-other-keys)
  (cl-incf dgnkit-test-published))

(defun dgnkit-test-line-of (regexp)
  "Zero-based line of the first line matching REGEXP."
  (save-excursion
    (goto-char (point-min))
    (re-search-forward regexp)
    (1- (line-number-at-pos))))

(defun dgnkit-test-request (method line needle offset)
  "Send METHOD at OFFSET characters into NEEDLE on zero-based LINE."
  (save-excursion
    (goto-char (point-min))
    (forward-line line)
    (search-forward needle (line-end-position))
    (goto-char (+ (match-beginning 0) offset))
    (jsonrpc-request (eglot--current-server-or-lose) method
                     (eglot--TextDocumentPositionParams)
                     :timeout dgnkit-test-timeout)))

(cl-defun dgnkit-test-run ()
  (let ((server (getenv "DGN_LSP")))
    (unless (dgnkit-test-check "DGN_LSP names an executable dgn-lsp"
                               (and server (file-executable-p server)) server)
      (cl-return-from dgnkit-test-run))
    (setq dgnkit-server-command (list server)
          dgnkit-target "nethack-3.6"
          eglot-send-changes-idle-time 0.1
          flymake-no-changes-timeout 0.1)
    (find-file (expand-file-name "../../test/dungeon.def" dgnkit-test-dir))
    (dgnkit-test-check "dgnkit-mode is chosen for dungeon.def" (eq major-mode 'dgnkit-mode)
                       major-mode)
    (font-lock-ensure)
    (goto-char (point-min))
    (search-forward "CHAINLEVEL")
    (dgnkit-test-check "keywords are highlighted"
                       (eq (get-text-property (match-beginning 0) 'face) 'font-lock-keyword-face)
                       (get-text-property (match-beginning 0) 'face))
    ;; `eglot-ensure' waits for a command loop that batch mode never runs.
    (apply #'eglot (eglot--guess-contact))
    (let ((server (eglot-current-server)))
      (unless (dgnkit-test-check "eglot connects to dgn-lsp" server)
        (cl-return-from dgnkit-test-run))
      (dgnkit-test-check "the language id is dungeon-def"
                         (equal (eglot--language-id server) "dungeon-def")
                         (eglot--language-id server)))
    (flymake-start)
    (dgnkit-test-check "diagnostics arrive and reach Flymake"
                       (dgnkit-test-wait (lambda () (and (> dgnkit-test-published 0)
                                                         (memq 'eglot-flymake-backend (flymake-reporting-backends)))))
                       (format "published %d, reporting %S" dgnkit-test-published (flymake-reporting-backends)))
    (dgnkit-test-check "the fixture has no errors" (null (dgnkit-test-errors))
                       (mapcar #'flymake-diagnostic-text (dgnkit-test-errors)))
    ;; "O" (the Oracle's bones marker) becomes "XX".
    (let* ((line (dgnkit-test-line-of "^LEVEL:[ \t]*\"oracle\""))
           (col (save-excursion
                  (goto-char (point-min)) (forward-line line)
                  (search-forward "\"O\"") (- (match-beginning 0) (line-beginning-position)))))
      (let ((before dgnkit-test-published))
        (save-excursion
          (goto-char (point-min)) (forward-line line) (forward-char (1+ col))
          (delete-char 1) (insert "XX"))
        ;; Eglot sends changes from an idle timer; batch Emacs is never idle.
        (eglot--signal-textDocument/didChange)
        (dgnkit-test-wait (lambda () (> dgnkit-test-published before))))
      (if (dgnkit-test-check "an edit that breaks a bones marker gives an error"
                             (dgnkit-test-wait (lambda () (dgnkit-test-errors)))
                             (format "published %d" dgnkit-test-published))
          (let* ((d (car (dgnkit-test-errors)))
                 (beg (flymake-diagnostic-beg d)))
            (dgnkit-test-check
             "the error is on the marker"
             (and (= (length (dgnkit-test-errors)) 1)
                  (= (1- (line-number-at-pos beg)) line)
                  ;; Characters from the line start (not `current-column': tabs).
                  (memq (save-excursion (goto-char beg) (- (point) (line-beginning-position)))
                        (list col (1+ col))))
             (format "want line %d col %d, got %S" line col
                     (mapcar (lambda (d) (list (line-number-at-pos (flymake-diagnostic-beg d))
                                               (flymake-diagnostic-text d)))
                             (dgnkit-test-errors))))
            (dgnkit-test-out "# %s" (replace-regexp-in-string "\n" "\n# " (flymake-diagnostic-text d)))))
      (let* ((hover (dgnkit-test-request :textDocument/hover line "oracle" 2))
             (contents (and hover (plist-get hover :contents)))
             (text (cond ((stringp contents) contents)
                         ((plist-get contents :value))
                         ((vectorp contents)
                          (mapconcat (lambda (c) (if (stringp c) c (plist-get c :value))) contents "\n"))
                         (t ""))))
        (dgnkit-test-check "hover on a level name has content"
                           (and text (string-match-p "[^[:space:]]" text)) hover))
      (let* ((ref-line (dgnkit-test-line-of "^CHAINLEVEL:[ \t]*\"wizard2\""))
             (def-line (dgnkit-test-line-of "^LEVEL:[ \t]*\"wizard1\""))
             (def (dgnkit-test-request :textDocument/definition ref-line "\"wizard1\"" 3))
             (loc (if (vectorp def) (and (> (length def) 0) (aref def 0)) def))
             (range (and loc (or (plist-get loc :targetSelectionRange) (plist-get loc :range)))))
        (dgnkit-test-check "definition of a chain reference is its LEVEL line"
                           (and range (= (plist-get (plist-get range :start) :line) def-line))
                           def))
      (save-excursion
        (goto-char (point-min)) (forward-line line) (forward-char (1+ col))
        (delete-char 2) (insert "O"))
      (eglot--signal-textDocument/didChange)
      (dgnkit-test-check "undoing the edit clears the error"
                         (dgnkit-test-wait (lambda () (null (dgnkit-test-errors))))
                         (mapcar #'flymake-diagnostic-text (dgnkit-test-errors))))))

(cl-defun dgnkit-test-run-lua ()
  (let* ((dir (make-temp-file "dgnkit-lua" t))
         (file (expand-file-name "dungeon.lua" dir))
         (other (expand-file-name "other.lua" dir)))
    (copy-file (expand-file-name "../../../corpus/nethack-3.7.lua" dgnkit-test-dir) file)
    (with-temp-file other (insert "return { answer = 42 }\n"))
    (find-file other)
    (dgnkit-test-check "another Lua file is not dgnkit-lua-mode"
                       (not (eq major-mode 'dgnkit-lua-mode)) major-mode)
    (find-file file)
    (dgnkit-test-check "dgnkit-lua-mode is chosen for dungeon.lua"
                       (eq major-mode 'dgnkit-lua-mode) major-mode)
    (apply #'eglot (eglot--guess-contact))
    (let ((server (eglot-current-server)))
      (unless (dgnkit-test-check "eglot connects to dgn-lsp for dungeon.lua" server)
        (cl-return-from dgnkit-test-run-lua))
      (dgnkit-test-check "the language id is lua"
                         (equal (eglot--language-id server) "lua")
                         (eglot--language-id server)))
    (flymake-start)
    (let ((before dgnkit-test-published))
      (dgnkit-test-check "diagnostics arrive for dungeon.lua"
                         (dgnkit-test-wait (lambda () (> dgnkit-test-published before)))))
    (dgnkit-test-check "the built-in 3.7 description has no errors" (null (dgnkit-test-errors))
                       (mapcar #'flymake-diagnostic-text (dgnkit-test-errors)))
    (let* ((line (dgnkit-test-line-of "name = \"oracle\""))
           (hover (dgnkit-test-request :textDocument/hover line "\"oracle\"" 2))
           (contents (and hover (plist-get hover :contents)))
           (text (if (stringp contents) contents (plist-get contents :value))))
      (dgnkit-test-check "hover on a dungeon.lua level shows its depths"
                         (and text (string-match-p "depth:" text)) hover)
      (let* ((ref-line (dgnkit-test-line-of "chainlevel = \"oracle\""))
             (def (dgnkit-test-request :textDocument/definition ref-line "chainlevel = \"oracle\"" 16))
             (loc (if (vectorp def) (and (> (length def) 0) (aref def 0)) def))
             (range (and loc (or (plist-get loc :targetSelectionRange) (plist-get loc :range)))))
        (dgnkit-test-check "definition of chainlevel is the level"
                           (and range (= (plist-get (plist-get range :start) :line) line))
                           def)))))

(condition-case err
    (dgnkit-test-run)
  (error (dgnkit-test-check "the test runs" nil (error-message-string err))))
(ignore-errors (eglot-shutdown (eglot-current-server)))
(condition-case err
    (dgnkit-test-run-lua)
  (error (dgnkit-test-check "the dungeon.lua test runs" nil (error-message-string err))))
(ignore-errors (eglot-shutdown (eglot-current-server)))
(dgnkit-test-out "emacs: %d passed, %d failed" dgnkit-test-passed dgnkit-test-failed)
(kill-emacs (if (zerop dgnkit-test-failed) 0 1))

;;; lsp-test.el ends here

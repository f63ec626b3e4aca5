"""Model selection on a synthetic problem, nothing seeded: which calls actually draw?"""
import numpy as np
from sklearn.datasets import make_classification
from sklearn.decomposition import PCA
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, train_test_split
from sklearn.svm import SVC

X, y = make_classification(  # expect: RPL101
    n_samples=5000, n_features=40, n_informative=12, n_classes=3, weights=[0.6, 0.3, 0.1]
)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, stratify=y)  # expect: RPL101

# Deterministic pieces: full SVD, unshuffled folds, lbfgs, plain SVC, fixed random_state.
pca = PCA(n_components=20).fit(X_train)
X_train_p, X_test_p = pca.transform(X_train), pca.transform(X_test)
plain_cv = KFold(n_splits=5)
lbfgs = LogisticRegression(max_iter=1000)
svc = SVC(C=1.0, kernel="rbf")
gbm = GradientBoostingClassifier(n_estimators=200, random_state=0)

# These fall back on NumPy's global RNG.
shuffled_cv = StratifiedKFold(n_splits=5, shuffle=True)  # expect: RPL101
liblinear = LogisticRegression(solver="liblinear", C=0.5)  # expect: RPL101
calibrated_svc = SVC(kernel="rbf", probability=True)  # expect: RPL101

results = {}
for name, est, cv in [
    ("lbfgs", lbfgs, plain_cv),
    ("liblinear", liblinear, shuffled_cv),
    ("svc", svc, plain_cv),
    ("svc-proba", calibrated_svc, shuffled_cv),
    ("gbm", gbm, plain_cv),
]:
    search = GridSearchCV(est, {}, cv=cv, scoring="f1_macro")
    search.fit(X_train_p, y_train)
    results[name] = search.score(X_test_p, y_test)

for name, score in sorted(results.items(), key=lambda kv: -kv[1]):
    print(f"{name:10s} {score:.4f}")
print("mean", np.mean(list(results.values())))
